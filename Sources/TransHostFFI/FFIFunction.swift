// Calling a plugin's typed native entry point through libffi (DESIGN.md section 4).
//
// The call interface (ffi_cif) is prepared once, when the plugin is loaded, and kept with its
// argument-type array for the lifetime of the FFIFunction: libffi keeps pointers into both.
import CFFI
import TransHostManifest

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A refused preparation or call of a native entry point. `message` is a sentence that names
/// the symbol.
public struct FFIError: Error, Equatable, CustomStringConvertible {
    public let symbolName: String
    public let message: String

    public init(symbolName: String, message: String) {
        self.symbolName = symbolName
        self.message = message
    }

    public var description: String { message }
}

/// One prepared native function. Calls may come from any thread: the cif is never written after
/// `init`, and each call uses its own argument and return buffers.
public final class FFIFunction: @unchecked Sendable {
    public let symbolName: String
    public let address: UnsafeMutableRawPointer
    public let parameters: [ParameterType]
    /// nil means `void`.
    public let returnType: ParameterType?

    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    /// Bytes reserved per argument and for the return value; every whitelisted type fits.
    private static let slotSize = 8
    private static let returnSize = 16

    /// Prepares the call once with `ffi_prep_cif`. `returnType` nil = void.
    ///
    /// Every `ParameterType` is on the whitelist, so the only failure here is `ffi_prep_cif`
    /// itself refusing; manifest type names are checked by `init(symbolName:address:parameterTypeNames:returnTypeName:)`.
    public init(
        symbolName: String, address: UnsafeMutableRawPointer,
        parameters: [ParameterType], returnType: ParameterType?
    ) throws {
        self.symbolName = symbolName
        self.address = address
        self.parameters = parameters
        self.returnType = returnType

        let count = parameters.count
        let cif = UnsafeMutablePointer<ffi_cif>.allocate(capacity: 1)
        cif.initialize(to: ffi_cif())
        let types = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: Swift.max(count, 1))
        types.initialize(repeating: nil, count: Swift.max(count, 1))
        for (i, type) in parameters.enumerated() {
            types[i] = FFIFunction.ffiType(for: type)
        }
        let rtype = returnType.map(FFIFunction.ffiType(for:)) ?? cffi_type_void()
        let status = cffi_prep_cif(cif, UInt32(count), rtype, types)
        guard status == 0 else {
            cif.deallocate()
            types.deallocate()
            let signature = FFIFunction.signature(symbolName, parameters, returnType)
            throw FFIError(
                symbolName: symbolName,
                message: "cannot prepare the native call \(signature): ffi_prep_cif failed with status \(status)"
            )
        }
        self.cif = cif
        self.argumentTypes = types
    }

    /// Prepares a call from manifest type names. Names outside the whitelist (a struct, `...`,
    /// `long double`, a callback) are refused with a sentence naming the symbol and the allowed
    /// types. `returnTypeName` nil or "void" means void.
    public convenience init(
        symbolName: String, address: UnsafeMutableRawPointer,
        parameterTypeNames: [String], returnTypeName: String?
    ) throws {
        func lookUp(_ name: String, _ role: String) throws -> ParameterType {
            do {
                return try ParameterType(manifestName: name)
            } catch let e as ParameterError {
                throw FFIError(symbolName: symbolName, message: "native entry point \(symbolName.debugDescription), \(role): \(e.reason)")
            }
        }
        var types: [ParameterType] = []
        for (i, name) in parameterTypeNames.enumerated() {
            types.append(try lookUp(name, "parameter \(i + 1)"))
        }
        var rtype: ParameterType?
        if let returnTypeName, returnTypeName != "void" {
            rtype = try lookUp(returnTypeName, "return type")
        }
        try self.init(symbolName: symbolName, address: address, parameters: types, returnType: rtype)
    }

    deinit {
        cif.deinitialize(count: 1)
        cif.deallocate()
        argumentTypes.deallocate()
    }

    /// `double configure(double, int32)`: for messages.
    public var signature: String { FFIFunction.signature(symbolName, parameters, returnType) }

    private static func signature(_ name: String, _ parameters: [ParameterType], _ returnType: ParameterType?) -> String {
        "\(returnType?.rawValue ?? "void") \(name)(\(parameters.map(\.rawValue).joined(separator: ", ")))"
    }

    private static func ffiType(for type: ParameterType) -> UnsafeMutablePointer<ffi_type> {
        switch type {
        case .int8: return cffi_type_sint8()
        case .int16: return cffi_type_sint16()
        case .int32: return cffi_type_sint32()
        case .int64: return cffi_type_sint64()
        case .uint8: return cffi_type_uint8()
        case .uint16: return cffi_type_uint16()
        case .uint32: return cffi_type_uint32()
        case .uint64: return cffi_type_uint64()
        case .float: return cffi_type_float()
        case .double: return cffi_type_double()
        // C `_Bool` is one byte holding 0 or 1 on the supported ABIs; libffi has no bool type.
        case .bool: return cffi_type_uint8()
        case .string, .handle: return cffi_type_pointer()
        }
    }

    /// Calls with `values`, which must match `parameters` in count and type (integers are
    /// accepted in either integer case when they fit the C type; nothing is truncated).
    /// Strings are copied to NUL-terminated UTF-8 that lives until the call returns.
    ///
    /// Returns the return value in its type's canonical case, or nil for void. Integer returns
    /// narrower than a register are read through `ffi_arg` and narrowed (sign included). A
    /// `bool` return is the low byte of the `ffi_arg`, so it reads a C `_Bool` return, and an
    /// `int` return of 0 or 1. A `string` return is copied; a NULL string return is an error.
    public func call(_ values: [ParameterValue]) throws -> ParameterValue? {
        guard values.count == parameters.count else {
            throw FFIError(
                symbolName: symbolName,
                message: "native entry point \(signature) takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") but was called with \(values.count)"
            )
        }
        let count = parameters.count
        let slots = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1) * Self.slotSize, alignment: 16)
        let argumentPointers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Swift.max(count, 1))
        let result = UnsafeMutableRawPointer.allocate(byteCount: Self.returnSize, alignment: 16)
        var cStrings: [UnsafeMutablePointer<CChar>] = []
        defer {
            for s in cStrings { free(s) }
            slots.deallocate()
            argumentPointers.deallocate()
            result.deallocate()
        }
        slots.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(count, 1) * Self.slotSize)
        result.initializeMemory(as: UInt8.self, repeating: 0, count: Self.returnSize)

        for (i, (type, value)) in zip(parameters, values).enumerated() {
            let canonical: ParameterValue
            switch type.coerce(value) {
            case .success(let v): canonical = v
            case .failure(let reason):
                throw FFIError(
                    symbolName: symbolName,
                    message: "native entry point \(signature), argument \(i + 1): \(reason.text)"
                )
            }
            let slot = slots + i * Self.slotSize
            argumentPointers[i] = slot
            switch (type, canonical) {
            case (.int8, .int(let v)): slot.storeBytes(of: Int8(v), as: Int8.self)
            case (.int16, .int(let v)): slot.storeBytes(of: Int16(v), as: Int16.self)
            case (.int32, .int(let v)): slot.storeBytes(of: Int32(v), as: Int32.self)
            case (.int64, .int(let v)): slot.storeBytes(of: v, as: Int64.self)
            case (.uint8, .uint(let v)): slot.storeBytes(of: UInt8(v), as: UInt8.self)
            case (.uint16, .uint(let v)): slot.storeBytes(of: UInt16(v), as: UInt16.self)
            case (.uint32, .uint(let v)): slot.storeBytes(of: UInt32(v), as: UInt32.self)
            case (.uint64, .uint(let v)): slot.storeBytes(of: v, as: UInt64.self)
            case (.float, .float(let v)): slot.storeBytes(of: v, as: Float.self)
            case (.double, .double(let v)): slot.storeBytes(of: v, as: Double.self)
            case (.bool, .bool(let v)): slot.storeBytes(of: v ? 1 : 0, as: UInt8.self)
            case (.string, .string(let s)):
                guard let copy = strdup(s) else {
                    throw FFIError(symbolName: symbolName, message: "native entry point \(signature), argument \(i + 1): out of memory copying the string")
                }
                cStrings.append(copy)
                slot.storeBytes(of: UnsafeMutableRawPointer(copy), as: UnsafeMutableRawPointer?.self)
            case (.handle, .handle(let h)):
                slot.storeBytes(of: UnsafeMutableRawPointer(bitPattern: h), as: UnsafeMutableRawPointer?.self)
            default:
                // coerce(_:) only returns the canonical case for the type.
                preconditionFailure("FFIFunction: \(canonical) is not canonical for \(type)")
            }
        }

        cffi_call(cif, address, result, argumentPointers)

        guard let returnType else { return nil }
        // libffi widens integer returns narrower than ffi_arg to a whole ffi_arg.
        let register = UInt64(result.load(as: ffi_arg.self))
        switch returnType {
        case .int8: return .int(Int64(Int8(truncatingIfNeeded: register)))
        case .int16: return .int(Int64(Int16(truncatingIfNeeded: register)))
        case .int32: return .int(Int64(Int32(truncatingIfNeeded: register)))
        case .int64: return .int(result.load(as: Int64.self))
        case .uint8: return .uint(UInt64(UInt8(truncatingIfNeeded: register)))
        case .uint16: return .uint(UInt64(UInt16(truncatingIfNeeded: register)))
        case .uint32: return .uint(UInt64(UInt32(truncatingIfNeeded: register)))
        case .uint64: return .uint(result.load(as: UInt64.self))
        case .float: return .float(result.load(as: Float.self))
        case .double: return .double(result.load(as: Double.self))
        case .bool: return .bool(UInt8(truncatingIfNeeded: register) != 0)
        case .handle: return .handle(result.load(as: UInt.self))
        case .string:
            guard let p = result.load(as: UnsafePointer<CChar>?.self) else {
                throw FFIError(symbolName: symbolName, message: "native entry point \(signature) returned a NULL string")
            }
            return .string(String(cString: p))
        }
    }

    /// Calls with one value per spec, in order: `overrides[name]` parsed if present, else the
    /// validated default. Errors name the parameter (ParameterError) or the symbol (FFIError).
    /// Overrides that name no parameter are refused.
    public func call(specs: [ParameterSpec], overrides: [String: String] = [:]) throws -> ParameterValue? {
        try refuseUnknown(overrides.keys, specs)
        var values: [String: ParameterValue] = [:]
        for spec in specs { if let text = overrides[spec.name] { values[spec.name] = try spec.parse(text) } }
        return try call(specs: specs, values: values)
    }

    /// Calls with one value per spec, in order: `values[name]` if present (typed values, parsed
    /// once where the user gave them), else the validated default.
    public func call(specs: [ParameterSpec], values: [String: ParameterValue]) throws -> ParameterValue? {
        try refuseUnknown(values.keys, specs)
        return try call(specs.map { try $0.resolve(value: values[$0.name]) })
    }

    private func refuseUnknown<Names: Collection<String>>(_ names: Names, _ specs: [ParameterSpec]) throws {
        let known = Set(specs.map(\.name))
        if let unknown = names.sorted().first(where: { !known.contains($0) }) {
            let names = specs.map(\.name).joined(separator: ", ")
            throw ParameterError(
                parameter: unknown,
                reason: "no such parameter for \(symbolName.debugDescription) (its parameters are \(names.isEmpty ? "none" : names))"
            )
        }
    }
}
