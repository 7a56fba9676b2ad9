#version 330 core
// Vertical gradient behind the scene.
in float vY;
uniform vec3 uTop;
uniform vec3 uBottom;
out vec4 fragColor;

void main()
{
    fragColor = vec4(mix(uBottom, uTop, clamp(vY, 0.0, 1.0)), 1.0);
}
