#version 330 core
// Solid geometry: positions and normals go to eye space for lighting.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;

uniform mat4 uModelView; // uView * uModel, multiplied once per body on the CPU
uniform mat4 uProj;
uniform mat3 uNormal;    // inverse transpose of mat3(uModelView)

out vec3 vPos;    // eye space
out vec3 vNormal; // eye space
flat out vec3 vColor; // one colour per shape: nothing to interpolate

void main()
{
    vec4 p = uModelView * vec4(aPos, 1.0);
    vPos = p.xyz;
    vNormal = uNormal * aNormal;
    vColor = aColor;
    gl_Position = uProj * p;
}
