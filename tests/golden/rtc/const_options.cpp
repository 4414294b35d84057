#include <nvrtc.h>

// hipRTC's option and header arrays are const char**: the arrays get a
// const_cast, a null pointer stays as written.
nvrtcResult build(nvrtcProgram *prog, const char *src, const char *const *hdrs,
                  const char *const *names, const char *const *opts, int nopts)
{
    nvrtcResult r = nvrtcCreateProgram(prog, src, "k.cu", 2, hdrs, names);
    if (r != NVRTC_SUCCESS)
        return r;
    nvrtcCreateProgram(prog, src, "k.cu", 0, NULL, nullptr);
    return nvrtcCompileProgram(*prog, nopts, opts);
}
