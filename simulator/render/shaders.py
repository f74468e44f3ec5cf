"""GLSL sources: the instanced object program (MRT: colour + (depth, id)) and the sky.

Owns the look of surfaces: simple diffuse lighting from two directional lights plus
ambient, and procedural materials (plain, glow, dirty spots, wood, floor planks, wall,
metal). Attachment 1 receives (linear depth in metres along the view axis, instance id).
"""

OBJECT_VS = """
#version 330
uniform mat4 u_view;
uniform mat4 u_proj;
in vec3 in_pos;
in vec3 in_normal;
in vec4 in_r0;
in vec4 in_r1;
in vec4 in_r2;
in vec3 in_color;
in vec2 in_mat;
in float in_id;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_color;
out float v_depth;
flat out vec2 v_mat;
flat out float v_id;
void main() {
    mat3 m = transpose(mat3(in_r0.xyz, in_r1.xyz, in_r2.xyz));
    vec3 world = m * in_pos + vec3(in_r0.w, in_r1.w, in_r2.w);
    v_world = world;
    // cofactor matrix = det * inverse-transpose: enough for a normal that is normalized later
    v_normal = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1])) * in_normal;
    v_color = in_color;
    v_mat = in_mat;
    v_id = in_id;
    vec4 view = u_view * vec4(world, 1.0);
    v_depth = -view.z;
    gl_Position = u_proj * view;
}
"""

OBJECT_FS = """
#version 330
uniform vec3 u_eye;
in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;
in float v_depth;
flat in vec2 v_mat;
flat in float v_id;
layout(location = 0) out vec4 f_color;
layout(location = 1) out vec2 f_data;

float hash3(vec3 p) {
    p = fract(p * 0.3183099 + 0.1);
    p *= 17.0;
    return fract(p.x * p.y * p.z * (p.x + p.y + p.z));
}
float hashs(vec3 p) {
    return fract(sin(dot(p, vec3(12.9898, 78.233, 37.719))) * 43758.5453);
}
float noise(vec3 x) {
    vec3 i = floor(x);
    vec3 f = fract(x);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(mix(hash3(i), hash3(i + vec3(1, 0, 0)), f.x),
                   mix(hash3(i + vec3(0, 1, 0)), hash3(i + vec3(1, 1, 0)), f.x), f.y),
               mix(mix(hash3(i + vec3(0, 0, 1)), hash3(i + vec3(1, 0, 1)), f.x),
                   mix(hash3(i + vec3(0, 1, 1)), hash3(i + vec3(1, 1, 1)), f.x), f.y), f.z);
}

void main() {
    int mat = int(v_mat.x + 0.5);
    float seed = v_mat.y;
    vec3 c = v_color;
    vec3 n = normalize(v_normal);
    if (mat == 1) {
        f_color = vec4(c, 1.0);
    } else {
        if (mat == 2) {  // dirty: dark spots
            float s = noise(v_world * 22.0 + seed * 37.0);
            c *= s > 0.55 ? 0.5 : 0.95;
        } else if (mat == 3) {  // wood grain
            float g = sin((v_world.x + v_world.z) * 35.0 + v_world.y * 3.0
                          + noise(v_world * 3.0 + seed * 11.0) * 8.0);
            c *= 0.9 + 0.1 * g;
        } else if (mat == 4) {  // floor planks 0.2 m wide
            float row = floor(v_world.x / 0.2);
            float along = v_world.z + hashs(vec3(row, seed, 1.0)) * 3.0;
            float plank = floor(along / 1.2);
            c *= 0.88 + 0.14 * hashs(vec3(row, plank, seed));
            float seam = min(fract(v_world.x / 0.2), fract(along / 1.2) * 6.0);
            c *= seam < 0.03 ? 0.7 : 1.0;
        } else if (mat == 5) {  // wall
            c *= 0.95 + 0.05 * noise(v_world * 4.0);
        }
        vec3 l1 = normalize(vec3(0.35, 1.0, 0.25));
        vec3 l2 = normalize(vec3(-0.6, 0.3, -0.7));
        float light = 0.4 + 0.5 * max(dot(n, l1), 0.0) + 0.2 * max(dot(n, l2), 0.0);
        c *= light;
        if (mat == 6) {  // metal: a highlight
            vec3 v = normalize(u_eye - v_world);
            float spec = pow(max(dot(reflect(-l1, n), v), 0.0), 24.0);
            c += 0.35 * spec;
        }
        f_color = vec4(c, 1.0);
    }
    f_data = vec2(v_depth, v_id);
}
"""

SKY_VS = """
#version 330
in vec2 in_pos;
out vec2 v_uv;
void main() {
    v_uv = in_pos;
    gl_Position = vec4(in_pos, 0.99999, 1.0);
}
"""

SKY_FS = """
#version 330
layout(location = 0) out vec4 f_color;
layout(location = 1) out vec2 f_data;
in vec2 v_uv;
void main() {
    f_color = vec4(0.80, 0.82, 0.85, 1.0);
    f_data = vec2(0.0, 0.0);
}
"""
