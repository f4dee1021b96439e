import LatchCrypto

/// Keys shared by the tests; RSA generation is slow, so each algorithm gets one key per run.
enum Fixtures {
    static let es256: SigningKey = try! SigningKey.generate(.es256, id: "ec-1")
    static let rs256: SigningKey = try! SigningKey.generate(.rs256, id: "rsa-1")

    static func key(for algorithm: SigningAlgorithm) -> SigningKey {
        algorithm == .es256 ? es256 : rs256
    }

    /// A lookup that knows exactly the given keys.
    static func lookup(_ keys: SigningKey...) -> (String) -> SigningKey? {
        { kid in keys.first { $0.id == kid } }
    }

    static let claims = Array(#"{"iss":"https://latch.example","sub":"user-1","exp":4102444800}"#.utf8)
}
