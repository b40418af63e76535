#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer arrays_block {
    layout(offset = 0) float scalars[5];
    layout(offset = 20) uint counts[3];
    layout(offset = 32) vec3 dirs[3];
    layout(offset = 80) vec2 uvs[4];
    layout(offset = 112) mat2 rotations[2];
    layout(offset = 144) float grid[4][3];
    layout(offset = 192) int cube[2][2][2];
} arrays;

void main() {
    float total = 0.0;
    uint i = 0u;
    uint r = 0u;
    uint c = 0u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e15 = i;
            i = _e15 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e4 = i;
        if (_e4 < 5u) {
        } else {
            break;
        }
        {
            const float _e7 = total;
            const uint _e10 = i;
            const float _e12 = arrays.scalars[min(_e10, 4u)];
            total = _e7 + _e12;
        }
    }
    bool _s_loop_init2 = true;
    while (true) {
        if (!_s_loop_init2) {
            const uint _e45 = r;
            r = _e45 + 1u;
        }
        _s_loop_init2 = false;
        const uint _e19 = r;
        if (_e19 < 4u) {
        } else {
            break;
        }
        {
            c = 0u;
            bool _s_loop_init3 = true;
            while (true) {
                if (!_s_loop_init3) {
                    const uint _e42 = c;
                    c = _e42 + 1u;
                }
                _s_loop_init3 = false;
                const uint _e24 = c;
                if (_e24 < 3u) {
                } else {
                    break;
                }
                {
                    const uint _e29 = r;
                    const uint _e31 = c;
                    const float _e33 = total;
                    const uint _e34 = r;
                    const uint _e37 = c;
                    arrays.grid[min(_e29, 3u)][min(_e31, 2u)] = _e33 + float((_e34 * 3u) + _e37);
                }
            }
        }
    }
    const uint _e55 = arrays.counts[2];
    arrays.cube[1][0][1] = int(_e55);
    const vec3 _e63 = arrays.dirs[0];
    const vec3 _e67 = arrays.dirs[1];
    arrays.dirs[2] = normalize(_e63 + _e67);
    const mat2 _e76 = arrays.rotations[1];
    const vec2 _e80 = arrays.uvs[0];
    arrays.uvs[3] = _e76 * _e80;
    return;
}
