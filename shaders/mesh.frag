#version 330 core
// Blinn–Phong with a key light from the upper left and a headlight, both
// fixed to the eye; two-sided (the side facing the eye is lit), so a mesh
// with inverted normals is not drawn dark.
in vec3 vPos;
in vec3 vNormal;
in vec3 vColor;

uniform bool uOrtho;
uniform vec4 uHighlight; // rgb, amount
uniform float uAlpha;

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
    vec3 base = mix(vColor, uHighlight.rgb, uHighlight.a);
    vec3 c = base * (0.30 + 0.50 * key + 0.32 * head) + vec3(0.22 * spec);
    // a rim on highlighted bodies
    c += uHighlight.a * uHighlight.rgb * 0.6 * pow(1.0 - head, 3.0);
    fragColor = vec4(c, uAlpha);
}
