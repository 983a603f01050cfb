#include "shared_library_check.h"

#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fstream>

namespace fxs {

Status checkSharedLibrary(const std::string &path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return Error{path, 0, 0, std::string("cannot open: ") + std::strerror(errno)};
    const uint64_t size = uint64_t(in.tellg());
    auto read = [&](uint64_t offset, void *into, size_t bytes) {
        in.seekg(std::streamoff(offset));
        return bool(in.read(static_cast<char *>(into), std::streamsize(bytes)));
    };
    Elf64_Ehdr header;
    if (size < sizeof header || !read(0, &header, sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
        return Error{
            path, 0, 0, "expected an ELF shared library, found " + std::to_string(size) + " bytes of another kind"};
    if (header.e_ident[EI_CLASS] != ELFCLASS64)
        return Error{path, 0, 0, "expected a 64-bit ELF library, found a 32-bit one"};
    auto cutShort = [&](const char *what, uint64_t end) {
        return Error{path, 0, 0,
            std::string("expected a whole library, found one cut short: its ") + what + " end at byte "
                + std::to_string(end) + ", the file at " + std::to_string(size)};
    };
    const uint64_t programEnd = header.e_phoff + uint64_t(header.e_phnum) * header.e_phentsize;
    if (header.e_phentsize < sizeof(Elf64_Phdr) || programEnd > size)
        return cutShort("program headers", programEnd);
    const uint64_t sectionEnd = header.e_shoff + uint64_t(header.e_shnum) * header.e_shentsize;
    if (sectionEnd > size)
        return cutShort("section headers", sectionEnd);
    for (uint16_t k = 0; k < header.e_phnum; ++k) {
        Elf64_Phdr segment;
        if (!read(header.e_phoff + uint64_t(k) * header.e_phentsize, &segment, sizeof segment))
            return cutShort("program headers", programEnd);
        if (segment.p_type == PT_LOAD && segment.p_offset + segment.p_filesz > size)
            return cutShort("loadable segments", segment.p_offset + segment.p_filesz);
    }
    return Ok{};
}

} // namespace fxs
