#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform xf_block {
    layout(offset = 0) vec2 m22_c0;
    layout(offset = 8) vec2 m22_c1;
    layout(offset = 16) mat2x3 m23_;
    layout(offset = 48) mat2x4 m24_;
    layout(offset = 80) vec2 m32_c0;
    layout(offset = 88) vec2 m32_c1;
    layout(offset = 96) vec2 m32_c2;
    layout(offset = 112) mat3 m33_;
    layout(offset = 160) mat3x4 m34_;
    layout(offset = 208) vec2 m42_c0;
    layout(offset = 216) vec2 m42_c1;
    layout(offset = 224) vec2 m42_c2;
    layout(offset = 232) vec2 m42_c3;
    layout(offset = 240) mat4x3 m43_;
    layout(offset = 304) mat4 m44_;
    layout(offset = 368) uint column;
    layout(offset = 372) uint row;
} xf;
layout(set = 0, binding = 1, std430) buffer results_block {
    layout(offset = 0) vec4 products[8];
    layout(offset = 128) vec4 dets;
    layout(offset = 144) mat4 combined;
    layout(offset = 208) mat3x2 narrowed;
} results;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

mat2 inverse2_(mat2 m_1) {
    const float d_e1 = determinant(m_1);
    return mat2(vec2(m_1[1].y, -m_1[0].y), vec2(-m_1[1].x, m_1[0].x)) * (1.0 / d_e1);
}

void main() {
    mat4 m = mat4(vec4(1.0, 0.0, 0.0, 0.0), vec4(0.0, 1.0, 0.0, 0.0), vec4(0.0, 0.0, 1.0, 0.0), vec4(0.0, 0.0, 0.0, 1.0));
    const vec2 v2_e2 = vec2(1.0, 2.0);
    const vec3 v3_e6 = vec3(1.0, 2.0, 3.0);
    const vec4 v4_e11 = vec4(1.0, 2.0, 3.0, 4.0);
    const mat2 _e17 = mat2(xf.m22_c0, xf.m22_c1);
    const mat2 _e21 = mat2(xf.m22_c0, xf.m22_c1);
    results.products[0] = vec4(_e17 * v2_e2, v2_e2 * _e21);
    const mat2x3 _e29 = xf.m23_;
    results.products[1] = vec4(_e29 * v2_e2, 0.0);
    const mat2x4 _e38 = xf.m24_;
    results.products[2] = _e38 * v2_e2;
    const mat3x2 _e45 = mat3x2(xf.m32_c0, xf.m32_c1, xf.m32_c2);
    const mat3x2 _e49 = mat3x2(xf.m32_c0, xf.m32_c1, xf.m32_c2);
    const mat2x3 _e53 = xf.m23_;
    results.products[3] = vec4(_e45 * v3_e6, ((v2_e2 * _e49) - (v2_e2 * transpose(_e53))).xy);
    const mat3 _e64 = xf.m33_;
    const mat3 _e68 = xf.m33_;
    results.products[4] = vec4((_e64 * v3_e6) + (v3_e6 * _e68), 1.0);
    const mat3x4 _e78 = xf.m34_;
    const mat3x4 _e82 = xf.m34_;
    results.products[5] = (_e78 * v3_e6) + vec4(v4_e11 * _e82, 0.0);
    const mat4x2 _e92 = mat4x2(xf.m42_c0, xf.m42_c1, xf.m42_c2, xf.m42_c3);
    const uint _e98 = xf.column;
    const vec3 _e102 = xf.m43_[min(_s_mod_uint(_e98, 4u), 3u)];
    results.products[6] = vec4(_e92 * v4_e11, _e102.xy);
    const mat4 _e110 = xf.m44_;
    const mat4 _e114 = xf.m44_;
    const mat4x3 _e119 = xf.m43_;
    const uint _e125 = xf.column;
    const uint _e131 = xf.row;
    const float _e135 = xf.m44_[min(_s_mod_uint(_e125, 4u), 3u)][min(_s_mod_uint(_e131, 4u), 3u)];
    results.products[7] = ((_e110 * v4_e11) + (v4_e11 * _e114)) + vec4(_e119 * v4_e11, _e135);
    const mat2 _e140 = mat2(xf.m22_c0, xf.m22_c1);
    const mat2 _e143 = mat2(xf.m22_c0, xf.m22_c1);
    const mat2 sq2_e145 = _e140 * transpose(_e143);
    const mat3 _e148 = xf.m33_;
    const mat3 _e151 = xf.m33_;
    const mat2x3 _e156 = xf.m23_;
    const mat3x2 _e159 = mat3x2(xf.m32_c0, xf.m32_c1, xf.m32_c2);
    const mat3 sq3_e161 = (_e148 * transpose(_e151)) + (_e156 * _e159);
    const mat4 _e164 = xf.m44_;
    const mat4 _e167 = xf.m44_;
    const mat3x4 _e172 = xf.m34_;
    const mat4x3 _e175 = xf.m43_;
    const mat4 sq4_e179 = (_e164 * transpose(_e167)) - ((_e172 * _e175) * 0.5);
    const mat2 _e187 = mat2(xf.m22_c0, xf.m22_c1);
    mat2 _e188 = inverse2_(_e187);
    results.dets = vec4(determinant(sq2_e145), determinant(sq3_e161), determinant(sq4_e179), determinant(_e188));
    const mat4 _e213 = m;
    const mat4 _e218 = xf.m44_;
    const mat4 _e219 = m;
    const mat4 _e224 = xf.m44_;
    m = ((2.0 * _e213) + (_e218 * _e219)) - transpose(_e224);
    m[3] = vec4(v3_e6, 1.0);
    const uint _e232 = xf.column;
    const uint _e238 = xf.row;
    m[min(_s_mod_uint(_e232, 4u), 3u)][min(_s_mod_uint(_e238, 4u), 3u)] = 7.0;
    const mat4 _e245 = m;
    const mat2x4 _e248 = xf.m24_;
    const mat4x2 _e252 = mat4x2(xf.m42_c0, xf.m42_c1, xf.m42_c2, xf.m42_c3);
    const mat4 _e256 = xf.m44_;
    results.combined = ((_e245 * _e248) * _e252) * _e256;
    const mat2 _e262 = mat2(xf.m22_c0, xf.m22_c1);
    const mat2x3 _e265 = xf.m23_;
    const mat4x2 _e270 = mat4x2(xf.m42_c0, xf.m42_c1, xf.m42_c2, xf.m42_c3);
    const mat3x4 _e273 = xf.m34_;
    results.narrowed = (_e262 * transpose(_e265)) + (((_e270 * _e273) * mat3(v3_e6, v3_e6.yzx, v3_e6.zxy)) * 0.25);
    return;
}
