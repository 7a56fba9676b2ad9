#version 330 core
// Flexible bodies: the undeformed surface (body axes) plus the elastic
// displacement by modal superposition, u = sum_k w_k H_k(v), scaled for
// display, less the rigid motion that best fits the supports; the colour-map value is |u| (real metres) or the von Mises stress
// of the superposed modal stress tensors (Pa). Per surface vertex v and mode
// k the buffer textures hold H_k(v) at texel 2*(k*uNsv + v) (xyz) and the rate
// of the unit normal at the next texel (mt_flexview_normal_modes), and the
// stress tensor at texels 2*(k*uNsv + v) (xx yy zz) and +1 (xy yz zx).
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;
layout(location = 3) in int aRef;

uniform mat4 uModel;
uniform mat4 uView;
uniform mat4 uProj;
uniform mat3 uNormal;

uniform samplerBuffer uH;
uniform samplerBuffer uS;
uniform int uNsv;
uniform int uNModes;   // modes summed (0: undeformed)
uniform vec4 uW[64];   // modal coordinates, 4 per element
uniform float uScale;  // deformation scale
uniform int uField;    // 0 none, 1 displacement, 2 von Mises
uniform vec3 uRigT;    // rigid motion t + th x x fitted to the supports,
uniform vec3 uRigR;    // taken off so the body stays on its joints (mt_flexview.h)

out vec3 vPos;
out vec3 vNormal;
flat out vec3 vColor; // one colour per body
out float vValue;

void main()
{
    vec3 u = vec3(0.0), dn = vec3(0.0), sd = vec3(0.0), so = vec3(0.0);
    for (int k = 0; k < uNModes; k++) {
        float w = uW[k >> 2][k & 3];
        int t = k * uNsv + aRef;
        u += w * texelFetch(uH, 2 * t).xyz;
        dn += w * texelFetch(uH, 2 * t + 1).xyz;
        if (uField == 2) {
            sd += w * texelFetch(uS, 2 * t).xyz;
            so += w * texelFetch(uS, 2 * t + 1).xyz;
        }
    }
    u -= uRigT + cross(uRigR, aPos);
    dn -= cross(uRigR, aNormal);
    if (uField == 2) {
        vec3 d = sd - sd.yzx;
        vValue = sqrt(0.5 * dot(d, d) + 3.0 * dot(so, so));
    } else {
        vValue = length(u);
    }
    vec4 p = uView * uModel * vec4(aPos + uScale * u, 1.0);
    vPos = p.xyz;
    vNormal = uNormal * normalize(aNormal + uScale * dn);
    vColor = aColor;
    gl_Position = uProj * p;
}
