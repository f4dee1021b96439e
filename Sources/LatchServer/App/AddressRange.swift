#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 prefix in CIDR notation (RFC 4632 § 3.1, RFC 4291 § 2.3): `10.0.0.0/8`,
/// `2001:db8::/32`, or a single address (`/32` or `/128` implied).
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    private let network: [UInt8]
    private let prefixLength: Int

    /// Parses `text`; `nil` when it is not an address with an optional in-range prefix length.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = IPAddress.bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...bits).contains(parsed) else {
                return nil
            }
            length = parsed
        }
        network = Self.masked(bytes, prefixLength: length)
        prefixLength = length
    }

    /// Whether `address` (textual IPv4 or IPv6) lies in this range. An IPv4-mapped IPv6 address
    /// (`::ffff:10.0.0.1`) counts as its IPv4 address.
    public func contains(_ address: String) -> Bool {
        IPAddress.bytes(of: address).map(contains(bytes:)) ?? false
    }

    /// Whether the address with these 4 or 16 bytes (``IPAddress/bytes(of:)``) lies in this range.
    func contains(bytes: [UInt8]) -> Bool {
        bytes.count == network.count && Self.masked(bytes, prefixLength: prefixLength) == network
    }

    public var description: String {
        let family = network.count == 4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefixLength)"
    }

    private static func masked(_ bytes: [UInt8], prefixLength: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(8, max(0, prefixLength - index * 8))
            return keep == 8 ? byte : byte & ~(0xff >> UInt8(keep))
        }
    }
}
