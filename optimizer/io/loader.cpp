#include "loader.h"

#include "../patterns/python/py_readable_meta.h"
#include "../util/progress.h"
#include "export_json_parser.h"
#include "format.h"
#include "fx_text_parser.h"
#include "fxscope_json.h"
#include "pt2_archive.h"
#include "readable_parser.h"
#include "recording_reader.h"
#include "torch_trace_parser.h"
#include "torchair_parser.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fxs {

Result<size_t> inputFileSize(const std::string &path)
{
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
        return Error{path, 0, 0, std::string("cannot open: ") + std::strerror(errno)};
    if (S_ISDIR(st.st_mode))
        return Error{path, 0, 0, "expected a file, found a directory"};
    return size_t(st.st_size);
}

Result<std::string> readFileBytes(const std::string &path)
{
    auto size = inputFileSize(path);
    if (!size)
        return size.error();
    if (size.value() > kMaxInputBytes)
        return Error{path, 0, 0, "file is larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB"};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{path, 0, 0, std::string("cannot open: ") + std::strerror(errno)};
    std::string bytes;
    bytes.resize(size.value());
    in.read(bytes.data(), std::streamsize(bytes.size()));
    bytes.resize(size_t(in.gcount()));
    return bytes;
}

Status writeFileAtomically(const std::string &path, std::string_view bytes)
{
    std::string temp = path + ".tmp-" + std::to_string(getpid());
    FILE *f = std::fopen(temp.c_str(), "wb");
    if (!f)
        return Error{path, 0, 0, std::string("cannot write: ") + std::strerror(errno)};
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    ok = std::fflush(f) == 0 && ok;
    ok = fsync(fileno(f)) == 0 && ok;
    ok = std::fclose(f) == 0 && ok;
    if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
        int err = errno;
        std::remove(temp.c_str());
        return Error{path, 0, 0, std::string("cannot write: ") + std::strerror(err)};
    }
    return Ok{};
}

Result<GraphFile> loadGraphBytes(std::string_view bytes, const std::string &fileName)
{
    auto fmt = sniffFormat(bytes, fileName);
    if (!fmt)
        return fmt.error();
    using Parser = Result<GraphFile> (*)(std::string_view, const std::string &);
    static const std::pair<const char *, Parser> parsers[] = {
        {format::FxText, parseFxText},
        {format::Readable, parseReadable},
        {format::TorchTrace, parseTorchTrace},
        {format::ExportJson, parseExportJson},
        {format::Pt2, parsePt2Archive},
        {format::TorchAirPy, parseTorchAirPy},
        {format::FxscopeJson, parseFxscopeJson},
    };
    for (const auto &p : parsers) {
        if (fmt.value() != p.first)
            continue;
        auto file = p.second(bytes, fileName);
        if (progressCanceled())
            return canceledError(fileName);
        reportProgress(1, 1);
        if (file) {
            file->path = fileName;
            file->format = p.first;
            if (fmt.value() == format::Readable || fmt.value() == format::TorchTrace)
                for (NamedGraph &g : file->graphs)
                    PyReadableMeta::inferMissing(*g.graph);
        }
        return file;
    }
    return Error{fileName, 0, 0, "no parser for format " + fmt.value()};
}

Result<GraphFile> loadGraphFile(const std::string &path)
{
    if (isRecordingPath(path))
        return loadRecording(path);
    auto bytes = readFileBytes(path);
    if (!bytes)
        return bytes.error();
    return loadGraphBytes(bytes.value(), path);
}

} // namespace fxs
