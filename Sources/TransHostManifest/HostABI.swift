import CTransHost

/// The host's ABI version (from transhost.h).
public enum HostABI {
    public static let major = Int(TH_ABI_MAJOR)
    public static let minor = Int(TH_ABI_MINOR)
    public static var text: String { "\(major).\(minor)" }

    /// The sizes of the plugin-provided structs in ABI 1.0, the smallest a plugin may pass.
    /// Structs only grow by appending, so a later host accepts these sizes and reads only the
    /// fields a plugin's struct_size covers (these constants must never change in major 1).
    public static let minimumAnimationParamsSize: UInt32 = 32
    public static let minimumAnimatorSize: UInt32 = 48
    public static let minimumEntrySize: UInt32 = 56
    /// th_delegate as ABI 1.2 defined it (struct_size, id, animator_for, interaction_for,
    /// navigation_show, user); 1.3 appended presentation_controller_for.
    public static let minimumDelegateSize: UInt32 = 48

    /// The major must be equal and the plugin's minor not newer: structs only grow by appending.
    public static func isCompatible(major m: Int, minor n: Int) -> Bool { m == major && n <= minor }
}
