// stride-dxc: a minimal command-line front end for DXC's libdxcompiler.so.
//
// No Linux package ships a `dxc` binary, but compushady's source package
// contains a prebuilt libdxcompiler (DXC 1.7). scripts/install-dxc.sh puts
// that library, dxcapi.h and WinAdapter.h in one folder and builds this file
// next to them:
//
//   g++ -std=c++17 -fms-extensions -I<dir> stride-dxc.cpp -o <dir>/stride-dxc -ldl
//
// Usage:
//   stride-dxc [dxc arguments...] FILE     compile FILE ("-" reads stdin)
//   stride-dxc --version                   print the DXC version and exit
//
// Every argument before FILE goes to IDxcCompiler3::Compile unchanged, so the
// usual dxc options work: -T cs_6_0 -E main, -Fc -, -Fo out.dxil, -spirv,
// -fvk-use-dx-layout, -enable-16bit-types, -HV 2021, -D, -I, ...
//
// -Fo FILE and -Fc FILE are dxc.exe driver options that the library rejects,
// so this tool handles them: -Fo writes the object (DXIL container or SPIR-V),
// -Fc the disassembly, and "-" (as in `-Fc -`) means stdout. Without either,
// the disassembly goes to stdout, as with dxc. DXIL is disassembled by the
// library; SPIR-V (-spirv) by `spirv-dis` from PATH (spirv-tools), since the
// library has no SPIR-V disassembler. Other outputs the library names itself
// (-Fd, -Fre, ...) are written where they say. Diagnostics (errors and
// warnings, including DXC's `DXIL.dll not found` signing warning) go to
// stderr.
//
// Exit status: 0 when the compile succeeds, 1 when it fails (compile errors),
// 2 for usage errors, a missing library or an API failure.
//
// The library is looked up in $STRIDE_DXC_LIB, else beside this executable
// (libdxcompiler_x86_64.so.3.7, then libdxcompiler.so), else through the
// dynamic loader's search path (libdxcompiler.so).

#include "dxcapi.h"

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

const char *const kTool = "stride-dxc";
const char *const kLibName = "libdxcompiler_x86_64.so.3.7";

// Owns one COM-style reference and releases it on scope exit.
template <typename T> class Ref {
public:
  Ref() = default;
  Ref(const Ref &) = delete;
  Ref &operator=(const Ref &) = delete;
  ~Ref() {
    if (ptr_ != nullptr) {
      ptr_->Release();
    }
  }
  T *get() const { return ptr_; }
  T *operator->() const { return ptr_; }
  T **out() { return &ptr_; }
  void **out_void() { return reinterpret_cast<void **>(&ptr_); }
  explicit operator bool() const { return ptr_ != nullptr; }

private:
  T *ptr_ = nullptr;
};

// UTF-8 -> wchar_t (UTF-32 on Linux). Invalid bytes become U+FFFD.
std::wstring widen(const std::string &s) {
  std::wstring out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    unsigned long cp = 0xFFFD;
    size_t len = 1;
    if (c < 0x80) {
      cp = c;
    } else if ((c >> 5) == 0x6) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c >> 4) == 0xE) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c >> 3) == 0x1E) {
      len = 4;
      cp = c & 0x07;
    } else {
      len = 0;
    }
    if (len == 0 || i + len > s.size()) {
      out.push_back(static_cast<wchar_t>(0xFFFD));
      i += 1;
      continue;
    }
    bool ok = true;
    for (size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 0x2) {
        ok = false;
        break;
      }
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (!ok) {
      out.push_back(static_cast<wchar_t>(0xFFFD));
      i += 1;
      continue;
    }
    out.push_back(static_cast<wchar_t>(cp));
    i += len;
  }
  return out;
}

// wchar_t (UTF-32) -> UTF-8.
std::string narrow(const wchar_t *w) {
  std::string out;
  if (w == nullptr) {
    return out;
  }
  for (; *w != 0; ++w) {
    unsigned long cp = static_cast<unsigned long>(*w);
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  return out;
}

std::string hresult_text(HRESULT hr) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%08x", static_cast<unsigned>(hr));
  return buf;
}

// The folder of the running executable, with a trailing slash, or "".
std::string exe_dir() {
  std::vector<char> buf(4096);
  ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) {
    return "";
  }
  std::string path(buf.data(), static_cast<size_t>(n));
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

struct Library {
  void *handle = nullptr;
  DxcCreateInstanceProc create = nullptr;
  std::string path;
};

bool load_library(Library &lib) {
  std::vector<std::string> candidates;
  const char *env = std::getenv("STRIDE_DXC_LIB");
  if (env != nullptr && *env != 0) {
    candidates.push_back(env);
  } else {
    std::string dir = exe_dir();
    if (!dir.empty()) {
      candidates.push_back(dir + kLibName);
      candidates.push_back(dir + "libdxcompiler.so");
    }
    candidates.push_back("libdxcompiler.so");
  }
  std::string errors;
  for (const std::string &path : candidates) {
    void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char *e = dlerror();
      errors += "\n  " + path + ": " + (e != nullptr ? e : "dlopen failed");
      continue;
    }
    void *sym = dlsym(h, "DxcCreateInstance");
    if (sym == nullptr) {
      errors += "\n  " + path + ": no DxcCreateInstance symbol";
      dlclose(h);
      continue;
    }
    lib.handle = h;
    lib.create = reinterpret_cast<DxcCreateInstanceProc>(sym);
    lib.path = path;
    return true;
  }
  std::cerr << kTool << ": cannot load libdxcompiler (set STRIDE_DXC_LIB, or run "
            << "scripts/install-dxc.sh):" << errors << "\n";
  return false;
}

bool read_input(const std::string &file, std::string &text) {
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << kTool << ": cannot read " << file << ": " << std::strerror(errno) << "\n";
    return false;
  }
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// The driver options that the library does not take (dxc.exe itself acts on
// them): -Fo FILE and -Fc FILE, also written -FoFILE, /Fo FILE, ...
struct OutputFiles {
  std::string object;
  std::string assembly;
};

// Removes -Fo/-Fc from `args` into `files`; false on a missing value.
bool take_output_options(std::vector<std::string> &args, OutputFiles &files) {
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    std::string *target = nullptr;
    if (a.size() >= 3 && (a[0] == '-' || a[0] == '/') && a[1] == 'F' &&
        (a[2] == 'o' || a[2] == 'c')) {
      target = a[2] == 'o' ? &files.object : &files.assembly;
    }
    if (target == nullptr) {
      rest.push_back(a);
      continue;
    }
    if (a.size() > 3) {
      *target = a.substr(3);
    } else if (i + 1 < args.size()) {
      *target = args[++i];
    } else {
      std::cerr << kTool << ": " << a << " needs a file name (- for stdout)\n";
      return false;
    }
  }
  args.swap(rest);
  return true;
}

bool write_bytes(const std::string &name, const void *data, size_t size) {
  if (name == "-") {
    std::cout.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  std::ofstream out(name, std::ios::binary | std::ios::trunc);
  if (!out) {
    std::cerr << kTool << ": cannot write " << name << ": " << std::strerror(errno) << "\n";
    return false;
  }
  out.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}

// The text of a blob that holds text (errors, disassembly), as UTF-8.
std::string blob_text(IDxcUtils *utils, IDxcBlob *blob) {
  Ref<IDxcBlobUtf8> utf8;
  if (blob == nullptr || FAILED(utils->GetBlobAsUtf8(blob, utf8.out())) || !utf8) {
    return "";
  }
  const char *p = utf8->GetStringPointer();
  size_t n = utf8->GetStringLength();
  return p == nullptr ? std::string() : std::string(p, n);
}

bool is_text_kind(DXC_OUT_KIND kind) {
  return kind == DXC_OUT_DISASSEMBLY || kind == DXC_OUT_HLSL || kind == DXC_OUT_TEXT;
}

// Prints a result's diagnostics (errors and warnings) to stderr.
void print_errors(IDxcUtils *utils, IDxcOperationResult *result) {
  Ref<IDxcBlobEncoding> errors;
  if (FAILED(result->GetErrorBuffer(errors.out())) || !errors) {
    return;
  }
  std::string text = blob_text(utils, errors.get());
  if (!text.empty()) {
    std::cerr << text;
    if (text.back() != '\n') {
      std::cerr << "\n";
    }
  }
}

bool is_spirv(IDxcBlob *blob) {
  const unsigned char magic[4] = {0x03, 0x02, 0x23, 0x07};
  return blob->GetBufferSize() >= 4 && std::memcmp(blob->GetBufferPointer(), magic, 4) == 0;
}

// DXIL container -> text, written to `where` ("-" is stdout).
bool disassemble_dxil(IDxcUtils *utils, IDxcCompiler3 *compiler, IDxcBlob *object,
                      const std::string &where) {
  DxcBuffer obj;
  obj.Ptr = object->GetBufferPointer();
  obj.Size = object->GetBufferSize();
  obj.Encoding = DXC_CP_ACP;
  Ref<IDxcResult> dis;
  HRESULT hr = compiler->Disassemble(&obj, __uuidof(IDxcResult), dis.out_void());
  HRESULT status = E_FAIL;
  if (SUCCEEDED(hr) && dis && FAILED(dis->GetStatus(&status))) {
    status = E_FAIL;
  }
  Ref<IDxcBlob> text_blob;
  Ref<IDxcBlobUtf16> unused;
  if (FAILED(hr) || !dis || FAILED(status) ||
      FAILED(dis->GetOutput(DXC_OUT_DISASSEMBLY, __uuidof(IDxcBlob), text_blob.out_void(),
                            unused.out())) ||
      !text_blob) {
    if (dis) {
      print_errors(utils, dis.get());
    }
    std::cerr << kTool << ": IDxcCompiler3::Disassemble failed: "
              << hresult_text(FAILED(hr) ? hr : status) << "\n";
    return false;
  }
  std::string text = blob_text(utils, text_blob.get());
  return write_bytes(where, text.data(), text.size());
}

// SPIR-V -> text through `spirv-dis` (from PATH), written to `where`.
bool spirv_dis(IDxcBlob *object, const std::string &where) {
  const char *tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr && *tmp != 0 ? tmp : "/tmp") +
                     "/stride-dxc-XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back(0);
  int fd = mkstemp(name.data());
  if (fd < 0) {
    std::cerr << kTool << ": cannot create a temporary file: " << std::strerror(errno) << "\n";
    return false;
  }
  close(fd);
  const std::string spv(name.data());
  bool ok = write_bytes(spv, object->GetBufferPointer(), object->GetBufferSize());
  if (ok) {
    std::cout.flush();
    pid_t pid = fork();
    if (pid == 0) {
      if (where == "-") {
        execlp("spirv-dis", "spirv-dis", spv.c_str(), static_cast<char *>(nullptr));
      } else {
        execlp("spirv-dis", "spirv-dis", spv.c_str(), "-o", where.c_str(),
               static_cast<char *>(nullptr));
      }
      std::fprintf(stderr, "%s: cannot run spirv-dis (install spirv-tools): %s\n", kTool,
                   std::strerror(errno));
      _exit(127);
    }
    int wstatus = 0;
    ok = pid > 0 && waitpid(pid, &wstatus, 0) == pid && WIFEXITED(wstatus) &&
         WEXITSTATUS(wstatus) == 0;
    if (!ok) {
      std::cerr << kTool << ": spirv-dis failed\n";
    }
  }
  unlink(spv.c_str());
  return ok;
}

int print_version(const Library &lib) {
  Ref<IDxcCompiler3> compiler;
  HRESULT hr = lib.create(CLSID_DxcCompiler, __uuidof(IDxcCompiler3), compiler.out_void());
  if (FAILED(hr) || !compiler) {
    std::cerr << kTool << ": DxcCreateInstance(IDxcCompiler3) failed: " << hresult_text(hr)
              << "\n";
    return 2;
  }
  Ref<IDxcVersionInfo> info;
  UINT32 major = 0;
  UINT32 minor = 0;
  if (FAILED(compiler->QueryInterface(__uuidof(IDxcVersionInfo), info.out_void())) || !info ||
      FAILED(info->GetVersion(&major, &minor))) {
    std::cout << "stride-dxc: DXC (version unknown), " << lib.path << "\n";
    return 0;
  }
  std::cout << "stride-dxc: DXC " << major << "." << minor;
  Ref<IDxcVersionInfo2> info2;
  if (SUCCEEDED(compiler->QueryInterface(__uuidof(IDxcVersionInfo2), info2.out_void())) &&
      info2) {
    UINT32 commits = 0;
    char *hash = nullptr;
    if (SUCCEEDED(info2->GetCommitInfo(&commits, &hash)) && hash != nullptr) {
      // The string belongs to the library's allocator; the process ends
      // right after, so it is not freed.
      std::cout << "." << commits << " (" << hash << ")";
    }
  }
  std::cout << ", " << lib.path << "\n";
  return 0;
}

void usage() {
  std::cerr << "usage: " << kTool << " [dxc arguments...] FILE   (FILE may be -, for stdin)\n"
            << "       " << kTool << " --version\n"
            << "example: " << kTool << " -T cs_6_0 -E main -Fc - shader.hlsl\n";
}

int run(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    usage();
    return 0;
  }
  bool version = args.size() == 1 && args[0] == "--version";
  if (!version && args.empty()) {
    usage();
    return 2;
  }

  Library lib;
  if (!load_library(lib)) {
    return 2;
  }
  if (version) {
    return print_version(lib);
  }

  const std::string file = args.back();
  args.pop_back();
  if (file.size() > 1 && file[0] == '-') {
    std::cerr << kTool << ": the last argument must be the input file, not `" << file << "`\n";
    usage();
    return 2;
  }
  OutputFiles files;
  if (!take_output_options(args, files)) {
    return 2;
  }
  std::string source;
  if (!read_input(file, source)) {
    return 2;
  }

  Ref<IDxcUtils> utils;
  HRESULT hr = lib.create(CLSID_DxcUtils, __uuidof(IDxcUtils), utils.out_void());
  if (FAILED(hr) || !utils) {
    std::cerr << kTool << ": DxcCreateInstance(IDxcUtils) failed: " << hresult_text(hr) << "\n";
    return 2;
  }
  Ref<IDxcCompiler3> compiler;
  hr = lib.create(CLSID_DxcCompiler, __uuidof(IDxcCompiler3), compiler.out_void());
  if (FAILED(hr) || !compiler) {
    std::cerr << kTool << ": DxcCreateInstance(IDxcCompiler3) failed: " << hresult_text(hr)
              << "\n";
    return 2;
  }
  Ref<IDxcIncludeHandler> includes;
  hr = utils->CreateDefaultIncludeHandler(includes.out());
  if (FAILED(hr)) {
    std::cerr << kTool << ": CreateDefaultIncludeHandler failed: " << hresult_text(hr) << "\n";
    return 2;
  }

  // The file name goes in as the positional argument: DXC uses it in
  // diagnostics and to resolve relative #includes.
  const std::string source_name = file == "-" ? "stdin.hlsl" : file;
  std::vector<std::wstring> wide;
  wide.reserve(args.size() + 1);
  for (const std::string &a : args) {
    wide.push_back(widen(a));
  }
  wide.push_back(widen(source_name));
  std::vector<LPCWSTR> wargs;
  wargs.reserve(wide.size());
  for (const std::wstring &w : wide) {
    wargs.push_back(w.c_str());
  }

  DxcBuffer buffer;
  buffer.Ptr = source.data();
  buffer.Size = source.size();
  buffer.Encoding = DXC_CP_UTF8;

  Ref<IDxcResult> result;
  hr = compiler->Compile(&buffer, wargs.data(), static_cast<UINT32>(wargs.size()), includes.get(),
                         __uuidof(IDxcResult), result.out_void());
  if (FAILED(hr) || !result) {
    std::cerr << kTool << ": IDxcCompiler3::Compile failed: " << hresult_text(hr) << "\n";
    return 2;
  }
  HRESULT status = E_FAIL;
  if (FAILED(result->GetStatus(&status))) {
    status = E_FAIL;
  }
  print_errors(utils.get(), result.get());
  if (FAILED(status)) {
    return 1;
  }

  bool ok = true;
  // Outputs the library names itself (-Fd, -Fre, -Frs, -Fsh, ...) are
  // written where they say; unnamed text outputs (-P, -ast-dump, ...) go to
  // stdout. The object and the disassembly are handled below.
  const UINT32 count = result->GetNumOutputs();
  for (UINT32 i = 0; i < count; ++i) {
    DXC_OUT_KIND kind = result->GetOutputByIndex(i);
    if (kind == DXC_OUT_ERRORS || kind == DXC_OUT_OBJECT || kind == DXC_OUT_NONE) {
      continue;
    }
    Ref<IDxcBlob> blob;
    Ref<IDxcBlobUtf16> name_blob;
    if (FAILED(result->GetOutput(kind, __uuidof(IDxcBlob), blob.out_void(), name_blob.out())) ||
        !blob) {
      continue;
    }
    std::string name = name_blob ? narrow(name_blob->GetStringPointer()) : std::string();
    if (is_text_kind(kind)) {
      std::string text = blob_text(utils.get(), blob.get());
      ok = write_bytes(name.empty() ? "-" : name, text.data(), text.size()) && ok;
    } else if (!name.empty()) {
      ok = write_bytes(name, blob->GetBufferPointer(), blob->GetBufferSize()) && ok;
    }
  }

  Ref<IDxcBlob> object;
  Ref<IDxcBlobUtf16> object_name;
  if (!result->HasOutput(DXC_OUT_OBJECT) ||
      FAILED(result->GetOutput(DXC_OUT_OBJECT, __uuidof(IDxcBlob), object.out_void(),
                               object_name.out())) ||
      !object) {
    // Nothing compiled (e.g. -P): nothing more to write.
    return ok ? 0 : 2;
  }
  if (!files.object.empty()) {
    ok = write_bytes(files.object, object->GetBufferPointer(), object->GetBufferSize()) && ok;
  }
  // As dxc: -Fc asks for the disassembly, and so does the lack of -Fo.
  if (!files.assembly.empty() || files.object.empty()) {
    const std::string &where = files.assembly.empty() ? std::string("-") : files.assembly;
    if (is_spirv(object.get())) {
      // The library's Disassemble reads DXIL only (dxc.exe links its own
      // SPIR-V disassembler): use spirv-dis.
      ok = spirv_dis(object.get(), where) && ok;
    } else {
      ok = disassemble_dxil(utils.get(), compiler.get(), object.get(), where) && ok;
    }
  }
  return ok ? 0 : 2;
}

} // namespace

int main(int argc, char **argv) { return run(argc, argv); }
