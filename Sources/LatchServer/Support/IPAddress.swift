#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Textual IP addresses as bytes, for the rate limits' source keys and the trusted-proxy ranges.
enum IPAddress {
    /// The 4 bytes of an IPv4 address or the 16 of an IPv6 one (`inet_pton(3)`); an IPv4-mapped
    /// IPv6 address (`::ffff:10.0.0.1`, RFC 4291 § 2.5.5.2) gives its 4 IPv4 bytes. `nil` for
    /// anything else.
    static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { return Array(bytes[12...]) }
        return bytes
    }
}
