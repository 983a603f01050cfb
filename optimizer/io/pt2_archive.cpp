#include "pt2_archive.h"

#include "export_json_parser.h"
#include "format.h"

#include <zip.h>

#include <algorithm>
#include <memory>

namespace fxs {

namespace {

// A program JSON larger than this is refused rather than inflated into memory.
constexpr zip_uint64_t kMaxEntryBytes = zip_uint64_t(1) << 30;
// Deflate rarely beats 100:1 on JSON; far beyond that on a large entry is a zip bomb.
constexpr zip_uint64_t kBombMinBytes = zip_uint64_t(64) << 20;
constexpr zip_uint64_t kBombRatio = 1000;

struct ArchiveCloser {
    void operator()(zip_t *za) const { zip_discard(za); }
};
struct FileCloser {
    void operator()(zip_file_t *f) const { zip_fclose(f); }
};

std::string_view baseName(std::string_view path)
{
    size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view parentName(std::string_view path)
{
    size_t slash = path.rfind('/');
    if (slash == std::string_view::npos)
        return {};
    return baseName(path.substr(0, slash));
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

struct Program {
    zip_uint64_t index;
    std::string entry;
    std::string graphName;
};

// The 2023 torch.export.save layout: [<folder>/]serialized_exported_program.json.
bool isLegacyProgram(std::string_view entry)
{
    return baseName(entry) == "serialized_exported_program.json";
}

// The PT2 archive layout: [<folder>/]models/<model>.json, beside configs and sample inputs.
bool isModelProgram(std::string_view entry)
{
    std::string_view base = baseName(entry);
    return parentName(entry) == "models" && endsWith(base, ".json") && base.size() > 5
        && !endsWith(base, "_config.json") && entry.find("sample_inputs") == std::string_view::npos;
}

std::string zipErrorText(zip_error_t *error)
{
    const char *text = zip_error_strerror(error);
    return text ? text : "unknown error";
}

Result<std::string> readEntry(zip_t *za, const Program &program, const std::string &label)
{
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za, program.index, 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
        return Error{label, 0, 0, "expected a readable archive entry, found a corrupt entry header"};
    if (st.size > kMaxEntryBytes)
        return Error{label, 0, 0,
            "expected an entry of at most 1 GiB, found one of " + std::to_string(st.size >> 20)
                + " MiB; refusing to inflate it"};
    if ((st.valid & ZIP_STAT_COMP_SIZE) && st.size > kBombMinBytes && st.comp_size * kBombRatio < st.size)
        return Error{label, 0, 0,
            "expected a plausible compression ratio, found " + std::to_string(st.size) + " bytes packed into "
                + std::to_string(st.comp_size) + " (a zip bomb?)"};
    std::unique_ptr<zip_file_t, FileCloser> file(zip_fopen_index(za, program.index, 0));
    if (!file)
        return Error{label, 0, 0, "cannot open archive entry: " + std::string(zip_strerror(za))};
    // Never trust the declared size further than reading it: memory grows with the data actually
    // inflated, reading stops at the declared size, and nothing may follow it.
    const size_t declared = size_t(st.size);
    std::string bytes;
    bytes.reserve(std::min<size_t>(declared, size_t(16) << 20));
    char chunk[64 * 1024];
    while (bytes.size() < declared) {
        zip_int64_t n = zip_fread(file.get(), chunk, std::min(sizeof chunk, declared - bytes.size()));
        if (n < 0)
            return Error{label, 0, 0, "corrupt archive entry: " + std::string(zip_file_strerror(file.get()))};
        if (n == 0)
            break;
        bytes.append(chunk, size_t(n));
    }
    if (bytes.size() != declared)
        return Error{label, 0, 0,
            "expected " + std::to_string(declared) + " bytes in the archive entry, found "
                + std::to_string(bytes.size())};
    char extra;
    zip_int64_t more = zip_fread(file.get(), &extra, 1);
    if (more != 0)
        return Error{label, 0, 0,
            more < 0 ? "corrupt archive entry: " + std::string(zip_file_strerror(file.get()))
                     : std::string("expected the entry to end at its declared size, found more data")};
    return bytes;
}

} // namespace

Result<GraphFile> parsePt2Archive(std::string_view bytes, const std::string &fileName)
{
    zip_error_t error;
    zip_error_init(&error);
    // The buffer source borrows `bytes`; nothing is copied or written to disk.
    zip_source_t *source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    if (!source) {
        std::string text = zipErrorText(&error);
        zip_error_fini(&error);
        return Error{fileName, 0, 0, "cannot read the archive: " + text};
    }
    zip_t *raw = zip_open_from_source(source, ZIP_RDONLY, &error);
    if (!raw) {
        zip_source_free(source);
        std::string text = zipErrorText(&error);
        zip_error_fini(&error);
        return Error{fileName, 0, 0, "expected a .pt2 zip archive, found a corrupt or truncated one (" + text + ")"};
    }
    zip_error_fini(&error);
    std::unique_ptr<zip_t, ArchiveCloser> za(raw);

    zip_int64_t count = zip_get_num_entries(za.get(), 0);
    std::vector<Program> models, legacy;
    std::vector<std::string> seen;
    for (zip_int64_t i = 0; i < count; ++i) {
        const char *name = zip_get_name(za.get(), zip_uint64_t(i), 0);
        if (!name)
            continue;
        std::string entry(name);
        if (seen.size() < 8)
            seen.push_back(entry);
        if (isModelProgram(entry)) {
            std::string model(baseName(entry));
            model.resize(model.size() - 5);
            models.push_back({zip_uint64_t(i), entry, model});
        } else if (isLegacyProgram(entry)) {
            std::string folder = entry.substr(0, entry.size() - baseName(entry).size());
            if (!folder.empty())
                folder.pop_back();
            legacy.push_back({zip_uint64_t(i), entry, folder});
        }
    }
    std::vector<Program> &programs = models.empty() ? legacy : models;
    if (programs.empty()) {
        std::string list;
        for (const auto &s : seen)
            list += (list.empty() ? "" : ", ") + s;
        if (count > zip_int64_t(seen.size()))
            list += ", ...";
        return Error{fileName, 0, 0,
            "expected an ExportedProgram JSON (models/<name>.json or serialized_exported_program.json) in the "
            "archive, found "
                + std::to_string(count) + " entries" + (list.empty() ? "" : ": " + list)};
    }
    // One legacy program is the "forward" graph; several are told apart by their folders.
    if (&programs == &legacy)
        for (auto &p : legacy)
            if (legacy.size() == 1 || p.graphName.empty())
                p.graphName = "forward";

    GraphFile file;
    file.path = fileName;
    file.format = format::Pt2;
    std::optional<Error> firstError;
    for (const auto &program : programs) {
        // Errors inside the archive name the entry as a path below the archive.
        const std::string label = fileName + "/" + program.entry;
        auto text = readEntry(za.get(), program, label);
        Result<GraphFile> parsed = text ? parseExportJson(text.value(), label) : Result<GraphFile>(text.error());
        if (!parsed) {
            if (!firstError)
                firstError = parsed.error();
            file.warnings.push_back(parsed.error());
            continue;
        }
        for (auto &w : parsed->warnings)
            file.warnings.push_back(std::move(w));
        for (auto &g : parsed->graphs) {
            g.name = program.graphName;
            file.graphs.push_back(std::move(g));
        }
    }
    // A broken model among good ones is a warning; with nothing readable it is the error.
    if (file.graphs.empty())
        return firstError ? *firstError : Error{fileName, 0, 0, "expected a readable ExportedProgram, found none"};
    return file;
}

} // namespace fxs
