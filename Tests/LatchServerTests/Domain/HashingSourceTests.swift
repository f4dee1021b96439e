import LatchServer
import Testing

/// Requests are queued for Argon2 by source: an IPv4 client by its address, an IPv6 client by its
/// /64 prefix.
@Suite("Hashing sources")
struct HashingSourceTests {
    @Test(
        "a peer address names its source",
        arguments: [
            ("203.0.113.7", "203.0.113.7"),
            ("2001:db8:0:1::5", "2001:db8:0:1::/64"),
            ("2001:0DB8:0000:0001:ffff:ffff:ffff:ffff", "2001:db8:0:1::/64"),
            ("2001:db8::1", "2001:db8:0:0::/64"),
            ("fe80::1%eth0", "fe80:0:0:0::/64"),
            ("::1", "0:0:0:0::/64"),
            ("::ffff:203.0.113.7", "203.0.113.7"),
            ("2001:db8:1:2:3:4:192.0.2.1", "2001:db8:1:2::/64"),
            ("", ""),
            ("not-an-address", "not-an-address"),
            ("2001:db8::1::2", "2001:db8::1::2"),
            ("1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"),
        ])
    func keys(address: String, key: String) {
        #expect(HashingSource(address: address).key == key)
    }

    @Test func administrationIsNoClientAddress() {
        #expect(HashingSource.administration.key == "administration")
        #expect(HashingSource.administration != HashingSource(address: "127.0.0.1"))
    }
}
