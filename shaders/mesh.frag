#version 330 core
// Blinn–Phong with a key light from the upper left and a headlight, both
// fixed to the eye; two-sided (the side facing the eye is lit), so a mesh
// with inverted normals is not drawn dark. Compiled twice: with COLOUR_MAP
// (flexible bodies, colour from a field) and without (rigid bodies). Mesa's
// llvmpipe evaluates both sides of a branch under a lane mask, so a branch
// on uField did not spare rigid bodies the colour map's texture read: the
// rigid variant leaves it out.
in vec3 vPos;
in vec3 vNormal;
flat in vec3 vColor; // constant over each shape (mesh.vert, flex.vert)

uniform bool uOrtho;
uniform vec4 uHighlight; // rgb, amount
uniform float uAlpha;
#ifdef COLOUR_MAP
in float vValue;
uniform int uField;      // > 0: colour from the map instead of vColor
uniform vec2 uRange;     // value at the bottom and the top of the map
uniform sampler1D uMap;  // the colour map (the legend draws the same table)
#endif

out vec4 fragColor;

void main()
{
    vec3 n = normalize(vNormal);
    vec3 v = uOrtho ? vec3(0.0, 0.0, 1.0) : normalize(-vPos);
    if (dot(n, v) < 0.0) n = -n;
    vec3 L = normalize(vec3(-0.35, 0.55, 0.75));
    float key = max(dot(n, L), 0.0);
    float head = max(dot(n, v), 0.0);
    // pow(s, 48) by squaring: the same value, without the exp2/log2 pair a
    // software rasteriser evaluates per fragment
    float s = max(dot(n, normalize(L + v)), 0.0);
    float s3 = s * s * s, s6 = s3 * s3, s12 = s6 * s6, s24 = s12 * s12;
    float spec = s24 * s24;
    vec3 col = vColor;
#ifdef COLOUR_MAP
    if (uField > 0) {
        float t = clamp((vValue - uRange.x) / max(uRange.y - uRange.x, 1e-30), 0.0, 1.0);
        col = texture(uMap, t).rgb;
    }
#endif
    float tint = uHighlight.a;
#ifdef COLOUR_MAP
    if (uField > 0) tint = 0.0; // a selected body keeps its colour map: the rim below marks it
#endif
    vec3 base = mix(col, uHighlight.rgb, tint);
    vec3 c = base * (0.30 + 0.50 * key + 0.32 * head) + vec3(0.22 * spec);
#ifdef COLOUR_MAP
    // a colour map is read against its legend: shading only darkens it (no
    // clipped channels, little white), so its hues stay those of the bar
    if (uField > 0) c = base * (0.50 + 0.50 * max(key, head)) + vec3(0.06 * spec);
#endif
    // a rim on highlighted bodies
    float rim = 1.0 - head;
    c += uHighlight.a * uHighlight.rgb * 0.6 * (rim * rim * rim);
    fragColor = vec4(c, uAlpha);
}
