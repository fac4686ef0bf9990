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

    public static func inspect(path: String, entrySymbol: String = "transhost_plugin_entry") throws -> ELFInspection {
        let b: [UInt8]
        do { b = try FileIO.readAll(path) } catch let e as FileIO.Failure { throw Failure(reason: "cannot read the library: \(e.reason)") }
        return try inspect(bytes: b, entrySymbol: entrySymbol)
    }

    public static func inspect(bytes b: [UInt8], entrySymbol: String) throws -> ELFInspection {
        guard b.count >= 64, b[0] == 0x7F, b[1] == 0x45, b[2] == 0x4C, b[3] == 0x46 else {
            throw Failure(reason: "not an ELF shared library (the file does not start with the ELF magic bytes); build it with `cc -shared -fPIC`")
        }
        guard b[4] == 2 else { throw Failure(reason: "a 32-bit ELF file; this host loads 64-bit libraries only") }
        guard b[5] == 1 else { throw Failure(reason: "a big-endian ELF file; this host is little-endian") }
        // Reads that fall outside the file give 0 (and the checks below turn that into an error).
        func u16(_ o: Int) -> UInt16 { o >= 0 && o <= b.count - 2 ? UInt16(b[o]) | UInt16(b[o + 1]) << 8 : 0 }
        func u32(_ o: Int) -> UInt32 { o >= 0 && o <= b.count - 4 ? (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[o + $1]) << (8 * $1) } : 0 }
        func u64(_ o: Int) -> UInt64 { o >= 0 && o <= b.count - 8 ? (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[o + $1]) << (8 * $1) } : 0 }
        let type = u16(16)
        guard type == 3 else { throw Failure(reason: "an ELF file of type \(type), not a shared object (ET_DYN); link it with -shared") }
        let machine = u16(18)
        if hostMachine != 0 && machine != hostMachine {
            throw Failure(reason: "built for ELF machine \(machine), but this host is machine \(hostMachine); rebuild it for this machine")
        }
        let shoff = Int(clamping: u64(0x28)), shentsize = Int(u16(0x3A)), shnum = Int(u16(0x3C))
        // Every offset comes from the file: check before adding, so a damaged header is an
        // error, never an arithmetic overflow.
        guard shoff > 0, shoff < b.count, shentsize >= 64, shnum > 0, shnum * shentsize <= b.count - shoff else {
            throw Failure(reason: "the ELF section headers are missing or truncated; the file may be damaged")
        }
        struct Section { let type: UInt32; let addr: UInt64; let offset: Int; let size: Int; let link: Int; let entsize: Int }
        let sections: [Section] = (0..<shnum).map { i in
            let o = shoff + i * shentsize
            return Section(type: u32(o + 4), addr: u64(o + 16), offset: Int(clamping: u64(o + 24)), size: Int(clamping: u64(o + 32)),
                           link: Int(u32(o + 40)), entsize: Int(clamping: u64(o + 56)))
        }
        let SHT_DYNSYM: UInt32 = 11, SHT_NOBITS: UInt32 = 8
        guard let dynsym = sections.first(where: { $0.type == SHT_DYNSYM }), dynsym.link < sections.count else {
            throw Failure(reason: "the library has no dynamic symbol table, so it exports no \(entrySymbol)")
        }
        let strtab = sections[dynsym.link]
        let want = Array(entrySymbol.utf8)
        let entsize = max(dynsym.entsize, 24)
        guard dynsym.offset >= 0, dynsym.offset <= b.count, dynsym.size >= 0, strtab.offset >= 0, strtab.offset <= b.count,
              entsize <= b.count else {
            throw Failure(reason: "the dynamic symbol table points outside the file; the library is damaged")
        }
        let tableEnd = dynsym.size <= b.count - dynsym.offset ? dynsym.offset + dynsym.size : b.count
        var found: UInt64?
        var i = dynsym.offset
        while i <= tableEnd - 24 {
            let nameIndex = Int(u32(i))
            let shndx = u16(i + 6)
            if shndx != 0, nameIndex < b.count - strtab.offset - want.count {
                let nameOff = strtab.offset + nameIndex
                if b[nameOff + want.count] == 0, Array(b[nameOff..<nameOff + want.count]) == want {
                    found = u64(i + 8)
                    break
                }
            }
            i += entsize
        }
        guard let addr = found else { return ELFInspection(hasEntrySymbol: false, abiMajor: nil, abiMinor: nil) }
        // The entry is const data: its first two fields (ABI major, minor) are in the file image.
        if let s = sections.first(where: { s in
            let (end, overflow) = s.addr.addingReportingOverflow(UInt64(s.size))
            return s.type != SHT_NOBITS && s.addr != 0 && !overflow && addr >= s.addr && addr <= end &- 8 && end >= 8
        }), s.offset >= 0, UInt64(s.offset) <= UInt64(b.count), addr - s.addr <= UInt64(b.count - s.offset) {
            let off = s.offset + Int(addr - s.addr)
            if off <= b.count - 8 { return ELFInspection(hasEntrySymbol: true, abiMajor: u32(off), abiMinor: u32(off + 4)) }
        }
        return ELFInspection(hasEntrySymbol: true, abiMajor: nil, abiMinor: nil)
    }
}
