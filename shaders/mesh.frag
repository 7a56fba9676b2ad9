#version 330 core
// Blinn–Phong with a key light from the upper left and a headlight, both
// fixed to the eye; two-sided (the side facing the eye is lit), so a mesh
// with inverted normals is not drawn dark.
in vec3 vPos;
in vec3 vNormal;
in vec3 vColor;
in float vValue;

uniform bool uOrtho;
uniform vec4 uHighlight; // rgb, amount
uniform float uAlpha;
uniform int uField;      // > 0: colour from the map instead of vColor
uniform vec2 uRange;     // value at the bottom and the top of the map
uniform sampler1D uMap;  // the colour map (the legend draws the same table)

out vec4 fragColor;

void main()
{
    vec3 n = normalize(vNormal);
    vec3 v = uOrtho ? vec3(0.0, 0.0, 1.0) : normalize(-vPos);
    if (dot(n, v) < 0.0) n = -n;
    vec3 L = normalize(vec3(-0.35, 0.55, 0.75));
    float key = max(dot(n, L), 0.0);
    float head = max(dot(n, v), 0.0);
    float spec = pow(max(dot(n, normalize(L + v)), 0.0), 48.0);
    vec3 col = vColor;
    if (uField > 0) {
        float t = clamp((vValue - uRange.x) / max(uRange.y - uRange.x, 1e-30), 0.0, 1.0);
        col = texture(uMap, t).rgb;
    }
    vec3 base = mix(col, uHighlight.rgb, uHighlight.a);
    vec3 c = base * (0.30 + 0.50 * key + 0.32 * head) + vec3(0.22 * spec);
    // a colour map is read against its legend: shading only darkens it (no
    // clipped channels, little white), so its hues stay those of the bar
    if (uField > 0) c = base * (0.50 + 0.50 * max(key, head)) + vec3(0.06 * spec);
    // a rim on highlighted bodies
    c += uHighlight.a * uHighlight.rgb * 0.6 * pow(1.0 - head, 3.0);
    fragColor = vec4(c, uAlpha);
}
