// stride-slangc: a slangc-like command line over the Slang compiler library.
//
// The PyPI wheel slangpy==0.43.1 carries libslang-compiler.so (Slang 2026.12)
// but no `slangc` executable. scripts/install-slang.sh extracts the library,
// its helper libraries and slang.h into one folder and builds this file next
// to them, linked against the library with rpath $ORIGIN:
//
//   g++ -std=c++17 -I<dir>/include stride-slangc.cpp -o <dir>/stride-slangc
//       -L<dir> -l:libslang-compiler.so.0.2026.12 -Wl,-rpath,'$ORIGIN' -ldl
//
// Usage:
//   stride-slangc [slangc arguments...]   compile, as slangc would
//   stride-slangc --version               print the Slang version and exit
//   stride-slangc --help                  print this usage and exit
//
// Every argument goes unchanged to spProcessCommandLineArguments, which
// parses slangc's own options (the library holds slangc's option parser):
//
//   stride-slangc shader.slang -target spirv -entry main -stage compute
//       -o out.spv -reflection-json refl.json
//   stride-slangc shader.hlsl -target hlsl -entry main -stage compute -o out.hlsl
//
// The request is put in command-line mode (ICompileRequest::
// setCommandLineCompilerMode, what slangc itself does): only then does the
// library write the `-o` files itself, and print text output to stdout when
// there is no `-o`. `-reflection-json FILE` is written by the library in
// either mode.
//
// Diagnostics (spGetDiagnosticOutput) go to stderr. Slang 2026.12 reports
// some warnings (binding warnings, for instance) twice in one compile when it
// generates code (once without code generation, -no-codegen); they are passed
// on as the library gives them.
//
// Exit status: 0 when the compile succeeds (warnings allowed), 1 when it fails
// with errors in the shader, 2 for usage errors and internal failures. Slang
// checks some usage only inside spCompile (a missing input file, an output
// file it cannot write). Its command-line and file diagnostics have numbers
// beginning with E000 (E00001 cannot open a file, E00004 cannot write an
// output, E00017 unknown option), unlike shader errors (E20002 syntax error,
// E30015 undefined identifier, E38000 no such entry point), so a failed
// compile whose diagnostics hold `error[E000` also exits with 2.

#include "slang.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

const char *const kTool = "stride-slangc";

void usage(FILE *to) {
  std::fprintf(to,
               "usage: %s [slangc arguments...]\n"
               "       %s --version\n"
               "example: %s shader.slang -target spirv -entry main -stage compute"
               " -o out.spv -reflection-json refl.json\n"
               "(`%s -h` prints Slang's own option list)\n",
               kTool, kTool, kTool, kTool);
}

// The path of the loaded Slang library, for --version.
std::string library_path() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&slang_createGlobalSession), &info) != 0 &&
      info.dli_fname != nullptr) {
    return info.dli_fname;
  }
  return "(unknown path)";
}

// Copies the request's accumulated diagnostics to stderr.
void print_diagnostics(SlangCompileRequest *request) {
  const char *text = spGetDiagnosticOutput(request);
  if (text == nullptr || *text == 0) {
    return;
  }
  std::fputs(text, stderr);
  if (text[std::strlen(text) - 1] != '\n') {
    std::fputc('\n', stderr);
  }
}

int run(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const bool version = argc == 2 && std::strcmp(argv[1], "--version") == 0;
  if (argc == 2 && std::strcmp(argv[1], "--help") == 0) {
    usage(stdout);
    return 0;
  }

  // spGetBuildTagString needs no session (creating one loads the core
  // module, a few hundred milliseconds).
  if (version) {
    std::printf("%s: Slang %s, %s\n", kTool, spGetBuildTagString(), library_path().c_str());
    return 0;
  }

  slang::IGlobalSession *session = nullptr;
  SlangResult res = slang_createGlobalSession(SLANG_API_VERSION, &session);
  if (SLANG_FAILED(res) || session == nullptr) {
    std::fprintf(stderr, "%s: slang_createGlobalSession failed: 0x%08x\n", kTool,
                 static_cast<unsigned>(res));
    return 2;
  }
  SlangCompileRequest *request = spCreateCompileRequest(session);
  if (request == nullptr) {
    std::fprintf(stderr, "%s: spCreateCompileRequest failed\n", kTool);
    session->release();
    return 2;
  }
  // Write -o files and print unnamed text output, as slangc does.
  request->setCommandLineCompilerMode();

  int status = 0;
  res = spProcessCommandLineArguments(request, argv + 1, argc - 1);
  if (SLANG_FAILED(res)) {
    // Unknown options, missing values, ...: the library says which.
    print_diagnostics(request);
    std::fprintf(stderr, "%s: bad arguments (0x%08x)\n", kTool, static_cast<unsigned>(res));
    status = 2;
  } else {
    res = spCompile(request);
    print_diagnostics(request);
    const char *diags = spGetDiagnosticOutput(request);
    const bool driver_error = diags != nullptr && std::strstr(diags, "error[E000") != nullptr;
    if (res == SLANG_FAIL && !driver_error) {
      // Errors in the shader, reported above.
      status = 1;
    } else if (res == SLANG_FAIL) {
      // A missing input, an unwritable output: reported above.
      status = 2;
    } else if (SLANG_FAILED(res)) {
      // SLANG_E_INTERNAL_FAIL and the like: the compiler itself failed.
      std::fprintf(stderr, "%s: spCompile failed: 0x%08x\n", kTool, static_cast<unsigned>(res));
      status = 2;
    }
  }
  spDestroyCompileRequest(request);
  session->release();
  std::fflush(stdout);
  return status;
}

} // namespace

int main(int argc, char **argv) { return run(argc, argv); }
