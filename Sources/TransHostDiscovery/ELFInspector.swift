import TransHostSupport
import TransHostManifest

/// Reads a plugin library as a file, without loading it: checks it is an ELF shared object for
/// this machine, finds the exported entry symbol and reads the ABI version stored in its first
/// two fields. This is how `list` reports plugins without running any plugin code.
public struct ELFInspection: Equatable, Sendable {
    public let hasEntrySymbol: Bool
    /// The ABI version read from the entry symbol's data, when it could be read.
    public let abiMajor: UInt32?
    public let abiMinor: UInt32?
    /// The libraries it links (its DT_NEEDED entries, in order), as far as they could be read.
    public var needed: [String] = []
}

public enum ELFInspector {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    static let machineX86_64: UInt16 = 62
    static let machineAArch64: UInt16 = 183

    #if arch(x86_64)
    static let hostMachine = machineX86_64
    #elseif arch(arm64)
    static let hostMachine = machineAArch64
    #else
    static let hostMachine: UInt16 = 0
    #endif

    /// The symbol and string tables are read whole; real ones are kilobytes, and a table
    /// claiming more than this is damage, not a library.
    static let tableLimit = 64 << 20

    /// Reads only what it needs (the ELF header, the section headers, the dynamic symbol and
    /// string tables, and the 8 bytes of the entry) by offset, so a 2 GiB file costs no more
    /// than a small one. Anything but a regular file is refused before it is opened for reading.
    public static func inspect(path: String, entrySymbol: String = "transhost_plugin_entry") throws -> ELFInspection {
        if let problem = FileIO.regularFileProblem(path) { throw Failure(reason: "cannot read the library: \(path) \(problem)") }
        let file: FileIO.RandomAccess
        do { file = try FileIO.RandomAccess(path) } catch let e as FileIO.Failure { throw Failure(reason: "cannot read the library: \(e.reason)") }
        return try inspect(size: file.size, read: file.read, entrySymbol: entrySymbol)
    }

    public static func inspect(bytes b: [UInt8], entrySymbol: String) throws -> ELFInspection {
        try inspect(size: b.count, read: { off, count in
            guard off >= 0, off < b.count, count > 0 else { return [] }
            return Array(b[off..<(off + min(count, b.count - off))])
        }, entrySymbol: entrySymbol)
    }

    /// `read(offset, count)` gives the bytes at [offset, offset + count) that exist (fewer at the
    /// end of the file, none outside it).
    static func inspect(size: Int, read: (Int, Int) -> [UInt8], entrySymbol: String) throws -> ELFInspection {
        let h = read(0, 64)
        guard h.count >= 64, size >= 64, h[0] == 0x7F, h[1] == 0x45, h[2] == 0x4C, h[3] == 0x46 else {
            throw Failure(reason: "not an ELF shared library (the file does not start with the ELF magic bytes); build it with `cc -shared -fPIC`")
        }
        guard h[4] == 2 else { throw Failure(reason: "a 32-bit ELF file; this host loads 64-bit libraries only") }
        guard h[5] == 1 else { throw Failure(reason: "a big-endian ELF file; this host is little-endian") }
        let type = u16(h, 16)
        guard type == 3 else { throw Failure(reason: "an ELF file of type \(type), not a shared object (ET_DYN); link it with -shared") }
        let machine = u16(h, 18)
        if hostMachine != 0 && machine != hostMachine {
            throw Failure(reason: "built for ELF machine \(machine), but this host is machine \(hostMachine); rebuild it for this machine")
        }
        let shoff = Int(clamping: u64(h, 0x28)), shentsize = Int(u16(h, 0x3A)), shnum = Int(u16(h, 0x3C))
        // Every offset comes from the file: check before adding, so a damaged header is an
        // error, never an arithmetic overflow.
        guard shoff > 0, shoff < size, shentsize >= 64, shnum > 0, shnum * shentsize <= size - shoff else {
            throw Failure(reason: "the ELF section headers are missing or truncated; the file may be damaged")
        }
        let sh = read(shoff, shnum * shentsize)
        guard sh.count == shnum * shentsize else { throw Failure(reason: "the ELF section headers are missing or truncated; the file may be damaged") }
        struct Section { let type: UInt32; let addr: UInt64; let offset: Int; let size: Int; let link: Int; let entsize: Int }
        let sections: [Section] = (0..<shnum).map { i in
            let o = i * shentsize
            return Section(type: u32(sh, o + 4), addr: u64(sh, o + 16), offset: Int(clamping: u64(sh, o + 24)), size: Int(clamping: u64(sh, o + 32)),
                           link: Int(u32(sh, o + 40)), entsize: Int(clamping: u64(sh, o + 56)))
        }
        let SHT_DYNSYM: UInt32 = 11, SHT_NOBITS: UInt32 = 8
        guard let dynsym = sections.first(where: { $0.type == SHT_DYNSYM }), dynsym.link < sections.count else {
            throw Failure(reason: "the library has no dynamic symbol table, so it exports no \(entrySymbol)")
        }
        let strtab = sections[dynsym.link]
        let want = Array(entrySymbol.utf8)
        let entsize = max(dynsym.entsize, 24)
        guard dynsym.offset >= 0, dynsym.offset <= size, dynsym.size >= 0, strtab.offset >= 0, strtab.offset <= size, entsize <= size else {
            throw Failure(reason: "the dynamic symbol table points outside the file; the library is damaged")
        }
        guard dynsym.size <= tableLimit, strtab.size <= tableLimit else {
            throw Failure(reason: "the dynamic symbol or string table claims more than \(tableLimit >> 20) MiB; the library is damaged")
        }
        let symbols = read(dynsym.offset, dynsym.size)
        let names = read(strtab.offset, strtab.size)
        var found: UInt64?
        var i = 0
        while i <= symbols.count - 24 {
            let nameIndex = Int(u32(symbols, i))
            let shndx = u16(symbols, i + 6)
            if shndx != 0, nameIndex < names.count - want.count {
                if names[nameIndex + want.count] == 0, Array(names[nameIndex..<nameIndex + want.count]) == want {
                    found = u64(symbols, i + 8)
                    break
                }
            }
            i += entsize
        }
        let needed = neededLibraries(sections.map { ($0.type, $0.offset, $0.size, $0.link) }, size: size,
                                     read: read, strings: (dynsym.link, names))
        guard let addr = found else { return ELFInspection(hasEntrySymbol: false, abiMajor: nil, abiMinor: nil, needed: needed) }
        // The entry is const data: its first two fields (ABI major, minor) are in the file image.
        if let s = sections.first(where: { s in
            let (end, overflow) = s.addr.addingReportingOverflow(UInt64(s.size))
            return s.type != SHT_NOBITS && s.addr != 0 && !overflow && addr >= s.addr && addr <= end &- 8 && end >= 8
        }), s.offset >= 0, UInt64(s.offset) <= UInt64(size), addr - s.addr <= UInt64(size - s.offset) {
            let off = s.offset + Int(addr - s.addr)
            let entry = read(off, 8)
            if entry.count == 8 { return ELFInspection(hasEntrySymbol: true, abiMajor: u32(entry, 0), abiMinor: u32(entry, 4), needed: needed) }
        }
        return ELFInspection(hasEntrySymbol: true, abiMajor: nil, abiMinor: nil, needed: needed)
    }

    /// The DT_NEEDED names of the dynamic section (SHT_DYNAMIC, its strings in the section it
    /// links). A damaged or missing section gives none: the names only help loading, and the
    /// loader reports what is really wrong. `strings` is a string table already read (the
    /// dynamic symbols', which is the dynamic section's too in every linker's output).
    static func neededLibraries(_ sections: [(type: UInt32, offset: Int, size: Int, link: Int)], size: Int, read: (Int, Int) -> [UInt8],
                                strings known: (section: Int, bytes: [UInt8])? = nil) -> [String] {
        let SHT_DYNAMIC: UInt32 = 6, DT_NEEDED: UInt64 = 1, DT_NULL: UInt64 = 0
        guard let dynamic = sections.first(where: { $0.type == SHT_DYNAMIC }), dynamic.link >= 0, dynamic.link < sections.count else { return [] }
        let strings = sections[dynamic.link]
        guard dynamic.offset >= 0, dynamic.offset <= size, dynamic.size >= 0, dynamic.size <= tableLimit,
              strings.offset >= 0, strings.offset <= size, strings.size >= 0, strings.size <= tableLimit else { return [] }
        let entries = read(dynamic.offset, dynamic.size)
        let names = known.flatMap { $0.section == dynamic.link ? $0.bytes : nil } ?? read(strings.offset, strings.size)
        var out: [String] = []
        var i = 0
        while i <= entries.count - 16 {
            let tag = u64(entries, i), value = u64(entries, i + 8)
            if tag == DT_NULL { break }
            if tag == DT_NEEDED, value < UInt64(names.count) {
                let start = Int(value)
                let end = names[start...].firstIndex(of: 0) ?? names.count
                out.append(String(decoding: names[start..<end], as: UTF8.self))
            }
            i += 16
        }
        return out
    }

    // Little-endian reads; a read that falls outside `b` gives 0 (and the checks turn that into an error).
    static func u16(_ b: [UInt8], _ o: Int) -> UInt16 { o >= 0 && o <= b.count - 2 ? UInt16(b[o]) | UInt16(b[o + 1]) << 8 : 0 }
    static func u32(_ b: [UInt8], _ o: Int) -> UInt32 { o >= 0 && o <= b.count - 4 ? (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[o + $1]) << (8 * $1) } : 0 }
    static func u64(_ b: [UInt8], _ o: Int) -> UInt64 { o >= 0 && o <= b.count - 8 ? (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[o + $1]) << (8 * $1) } : 0 }
}
