import Foundation

/// A tenant: an isolated directory of users, clients and signing keys, addressed by its `name` in
/// every path (`/{tenant}/…`).
public struct Tenant: Sendable, Equatable {
    /// Stable id, carried in tokens as `tid`.
    public var id: String
    /// The path segment, e.g. `default`.
    public var name: String
    /// Policies of this tenant.
    public var settings: TenantSettings
    /// When the tenant was created.
    public var createdAt: Date

    /// Creates a tenant record.
    public init(id: String, name: String, settings: TenantSettings, createdAt: Date) {
        self.id = id
        self.name = name
        self.settings = settings
        self.createdAt = createdAt
    }

    /// Whether `name` is usable as a tenant path segment: 1–63 of `a-z 0-9 -`, starting alphanumeric.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (1...63).contains(name.utf8.count) else { return false }
        let isAlnum: (UInt8) -> Bool = { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
        return isAlnum(first) && name.utf8.allSatisfy { isAlnum($0) || $0 == 0x2D }
    }
}
