#!/usr/bin/env bash
# Real-world coverage: translate the WGSL that published crates ship, and
# compile stride's output with the real compilers.
#
#   bash scripts/realworld.sh [spirv|hlsl|slang|glsl|glsl-DIALECT]...
#
#   default: spirv hlsl slang glsl-vulkan450 glsl-gl450 glsl-es310
#   (glsl alone is glsl-vulkan450; DIALECT is a --glsl name of stride)
#
# 1. Downloads every crate of the pinned list below from crates.io (name,
#    exact version, sha256 of the .crate as the crates.io index lists it)
#    into $STRIDE_REALWORLD_DIR/crates (default ~/.cache/stride-realworld).
#    A crate already there with the right checksum is not downloaded again.
# 2. Extracts every *.wgsl file of every crate, unchanged, into
#    $STRIDE_REALWORLD_DIR/wgsl as <crate>-<version>__<path>.wgsl, the path
#    inside the crate with `/` replaced by `__`. The folder is rebuilt from
#    the crates on every run, so it holds exactly the list's files.
# 3. Runs `cargo run --release --example realworld -- --target T` on that
#    folder for each target, keeps its full report in
#    $STRIDE_REALWORLD_DIR/report-T.txt and prints the summary.
#
# Needs network access to static.crates.io for the first run only; not part
# of CI (scripts/test.sh). The report is a measurement: the script fails
# only when a download, a checksum or the tool itself fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cache=${STRIDE_REALWORLD_DIR:-$HOME/.cache/stride-realworld}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(spirv hlsl slang glsl-vulkan450 glsl-gl450 glsl-es310)
for t in "${targets[@]}"; do
    case $t in
    spirv | hlsl | slang | glsl | glsl-*) ;;
    *)
        echo "usage: $0 [spirv|hlsl|slang|glsl|glsl-DIALECT]..." >&2
        exit 2
        ;;
    esac
done

# name, version, sha256 of the .crate (the index's `cksum`). Bevy 0.19 is
# the last release whose shaders are .wgsl (0.20 ships .wesl); wgpu 0.16 is
# the last whose crate carries its examples.
CRATES='
egui-wgpu           0.37.0  0309cbe1febed48af5b974e4bcc424b35e9664863a4d402697147b57a488c864
egui_wgpu_backend   0.36.0  72f3fcfcfab6e33d44a19325f76cff0fcd652d437acf632897d6e0c67595268b
iced_wgpu           0.14.0  ff144a999b0ca0f8a10257934500060240825c42e950ec0ebee9c8ae30561c13
glyphon             0.12.0  faea0bba2b305a172098adfc17f1a34a30282361903957da8c7a51049b4fae7b
wgpu_glyph          0.28.0  c03dcd7a2d4411ed60022b65780191771ab8fa5b4309b524f8e714b9b7eee197
wgpu_text           30.0.1  9807658f6773fb6afc18ed13943f6b5be449251b35e6d500150db10a177ed4ab
pixels              0.17.2  27af78f16789b973b8b340fe3f68cc2ec9f5e6f4aea64e4d794d5833ac9ca52e
imgui-wgpu          0.28.0  ff3c0b94f4662fe4aeb3751ccc703189352c8ee9d61bb796fd812faa0e074408
ggez                0.10.0  f26dff5bfc8b251e7f25786bfc31774d68dcfb6c0cbdc0bcd53211e10c81bd53
kas-wgpu            0.17.1  8563c6a4bff471e33aa020de4241d775a8632c14e1757b4b8c64a6c2b9324c7d
wgpu-profiler       0.28.0  a15a635a2a2ec0b9787589f17dbbffaa7960e779bcf0348a67f73c3e7665f9eb
vello_shaders       0.11.0  2e653222cee49f2571729c3e4b0fa99bc4f826c6bb9487dbb88b825d552b3a27
re_renderer         0.41.0  48dc8c54101bce5c6a1bfdbd515fa1523819d1136c5b8b7f4ce98ead3d98cacf
nannou_wgpu         0.20.0  31d6e042e3d1eda17522833db73260501e57646361c417d3b353fce56f901a54
wgpu                0.16.3  480c965c9306872eb6255fa55e4b4953be55a8b64d57e61d7ff840d3dcc051cd
wgpu-core           30.0.1  14c018fce9b6270aa203c2fdd56f3cce996713534bd757e4ea58c8560b121f14
femtovg             0.28.0  bdd6dfbb6f827356c8a284b9b7ab83828d6d630fe5457aa59f56092ee49f407a
blade-render        0.6.0   5154cd4b75ee0d1310873e853d9ef191b1d267b0ad3cf8e3bc097075eddbb94d
blade-egui          0.9.0   b308e74008a9454e835550e098198d59685b4af2702a3d9fdc0ffeeb760a2307
rend3-routine       0.3.0   969dd679c4aeefaa9b4783018c1414261d8af96c5cf1728588681c593ce4e880
wonnx               0.5.1   f73ecff8b7d946f8e63c5a5f872ae7ffbf31a6e9f1e79678f7985a8832f39ee1
bevy_pbr            0.19.1  244ae7d618b51a59c913c36b0564a295cd85ea91a5e777b542bb7bdb846a23d6
bevy_core_pipeline  0.19.1  2564f1ba766532e8eeb20059133ff6703e8dd5c3864b92378d0d1c541096ef12
bevy_render         0.19.1  fc86a32b2eef9859e1e7d323c6d1a9150fe77aa17c30fd05abebc12f645929dc
bevy_sprite_render  0.19.1  0c0a13c775880fe8fb3e7928921b2a1b549fd92c17571e7ca5e1250e53f0e56c
bevy_ui_render      0.19.1  30a36be1c251417421ee070ecd1a393f0036631f7495564a8c9d4abb6042dc40
bevy_post_process   0.19.1  8eb9340107f7a4292b3b1d138cffb2700f31cef580f5777f2e83f4f00eae4dc1
bevy_anti_alias     0.19.1  dde973fc942cb596b03cae0dbece0a4d9dc2d2790bbc9852aa415affc1210d3a
bevy_solari         0.19.1  6137adc9b4b9ddba719c63c2cf777607210e8f22b4978fbcf73a58acfe39b920
bevy_gizmos_render  0.19.1  2ea2b6266d210bca0aa3bcba7e17204e437b4e86cecd4021ab7dcd32da576a02
bevy_dev_tools      0.19.1  ee5887919325facb6142d98de3e3d156c1b86c2375ac569e2e3547601ab05eaf
bevy_feathers       0.19.1  e2bb6cfa726defd90add3eb71dc8b1ab32ca441f2531130679bfa880af2fb1f1
bevy_hanabi         0.20.0  e4364f703ea01bf311e4243abd73907ae77f61bb808d9234db207d217b9b49b2
bevy_infinite_grid  0.18.0  6a8a470db45cc18c7a9c65b8c60c96d04e40ce7e3c654453d4122463acf08644
bevy_polyline       0.14.1  ab2cece8403d053a66dca608250fb7db64f4d178f7e11794e667868561e08cc4
bevy_mod_outline    0.13.0  97f2e45781f64d23a3fecfd86d13efbb5256832b8091fe3b48cecd5875c538b9
bevy_atmosphere     0.13.0  961ca082cd26a7063a2c641bd349745ffc160b3ab60d0d063a159c4e585fb445
bevy_vello          0.14.0  5a17103dfbca1e0dd0a4e9131e3e666fc50adcdb806c324f9830c54362cc9b4d
bevy_mod_billboard  0.7.0   e7fcf796f109d285725c5cbb4c38f6f93b809c7dbea14bc19c5b94ce01ad59de
bevy_magic_light_2d 0.8.1   e1a8cbe78463c35d7bd937c0afa967f8cb3697ff06dc52a16960fb42f760f5fc
bevy_egui           0.43.1  cee91f48e697b0fd853713f81e95299a3f337f4623b1445df5e3da91284f30a3
gpui                0.2.2   979b45cfa6ec723b6f42330915a1b3769b930d02b2d505f9697f8ca602bee707
kludgine            0.11.0  32ee58ce44762ccebb879d0df90c736336f6230e633702c7a24643dff1fca25c
vger                0.4.0   f2219e012c0405b9ba858b705fe81cdb5a4c134ce03659c64a9344319a2ed214
comfy-wgpu          0.4.0   6118f09fd99577503ba6861dac53840bae6cf202d70f97042f5cdf43c222e39a
web-rwkv            0.10.20 9c6034fefecf055440c8f297ce569f35347711cd2c8e567f78652182034dd9dd
gpgpu               0.2.0   855e52e9ec2a06c6f6617bc54270d2288fca2b5881da1f87a736fa922e8dd769
maplibre            0.0.3   6861dd5b5e023b92194122b71a0949a97119d11f888eea1a277f0b49c561a956
wgcore              0.2.2   e4a7ba84090dab619f57ee63381c231a2cad7b2d38727a611e43f6eb5e35bb54
wgebra              0.2.0   23c4847ca7a17281919eff9ec03801999acbcf84fb213deadf6e5883d90aec7f
wgparry3d           0.2.0   71ae1b02f80ce15efa7aac6fa5f02702e21d5363df98a826e573b51b257fc388
wgpu_sort           0.1.0   4086e41b2039af4bdb669269bfac646d0a815750d5dab3a0c72d6fbf94a1fe97
wgsl_bindgen        0.23.3  83d7b71ca5c44e9d255fe3de765d8ca62c4021f600661dca5b923460c1191c7c
'

mkdir -p "$cache/crates"
new_wgsl="$cache/wgsl.new"
rm -rf "$new_wgsl"
mkdir -p "$new_wgsl"
unpack=$(mktemp -d)
trap 'rm -rf "$unpack" "$new_wgsl"' EXIT

downloaded=0
crates=0
while read -r name version sha; do
    [ -n "$name" ] || continue
    crates=$((crates + 1))
    file="$cache/crates/$name-$version.crate"
    if [ ! -f "$file" ] || ! echo "$sha  $file" | sha256sum --check --status; then
        echo "downloading $name $version" >&2
        curl -sSfL -o "$file.part" "https://static.crates.io/crates/$name/$name-$version.crate"
        if ! echo "$sha  $file.part" | sha256sum --check --status; then
            echo "checksum mismatch for $name-$version.crate" >&2
            rm -f "$file.part"
            exit 1
        fi
        mv "$file.part" "$file"
        downloaded=$((downloaded + 1))
    fi
    # Every .wgsl member, extracted as is and renamed flat.
    tar -tzf "$file" | grep '\.wgsl$' >"$unpack/list" || true
    [ -s "$unpack/list" ] || continue
    rm -rf "$unpack/x"
    mkdir "$unpack/x"
    tar -xzf "$file" -C "$unpack/x" -T "$unpack/list"
    while IFS= read -r member; do
        inner=${member#*/}
        cp "$unpack/x/$member" "$new_wgsl/${name}-${version}__${inner//\//__}"
    done <"$unpack/list"
done <<<"$CRATES"

rm -rf "$cache/wgsl"
mv "$new_wgsl" "$cache/wgsl"
count=$(find "$cache/wgsl" -name '*.wgsl' | wc -l)
echo "$crates crates ($downloaded downloaded now), $count .wgsl files in $cache/wgsl" >&2

cargo build --release --quiet --example realworld
tool="${CARGO_TARGET_DIR:-target}/release/examples/realworld"
for t in "${targets[@]}"; do
    report="$cache/report-$t.txt"
    case $t in
    glsl-*) args=(--glsl "${t#glsl-}" --target glsl) ;;
    *) args=(--target "$t") ;;
    esac
    "$tool" "${args[@]}" "$cache/wgsl" >"$report"
    echo
    echo "== $t (full report: $report)"
    sed -n '/^== summary/,$p' "$report"
done
