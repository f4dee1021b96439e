#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client's network address as the rate limits count it: an IPv4 address on its own, an IPv6
/// address by its /64 prefix (one subscriber is routinely given a whole /64, RFC 6177 § 2, so
/// counting single IPv6 addresses would let one client rotate through 2^64 of them). IPv4-mapped
/// IPv6 addresses count as their IPv4 address.
public enum SourceAddress {
    /// The key of `address` (textual IPv4 or IPv6, as the socket layer reports it); anything that
    /// does not parse is its own key.
    public static func key(_ address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return address }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
