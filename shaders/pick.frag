#version 330 core
// Colour-ID pass for picking: the object id (1…65535) in red and green.
uniform int uId;
out vec4 fragColor;

void main()
{
    fragColor = vec4(float(uId & 255) / 255.0, float((uId >> 8) & 255) / 255.0, 0.0, 1.0);
}
