#version 330 core
// Solid geometry: positions and normals go to eye space for lighting.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;

uniform mat4 uModel;
uniform mat4 uView;
uniform mat4 uProj;
uniform mat3 uNormal; // inverse transpose of mat3(uView * uModel)

out vec3 vPos;    // eye space
out vec3 vNormal; // eye space
out vec3 vColor;
out float vValue; // colour-map value (flex.vert); none here

void main()
{
    vec4 p = uView * uModel * vec4(aPos, 1.0);
    vPos = p.xyz;
    vNormal = uNormal * aNormal;
    vColor = aColor;
    vValue = 0.0;
    gl_Position = uProj * p;
}
