import Foundation

/// What an identity provider's configuration must look like (the `latchd idp add` checks, which
/// ``AdminService/addIdentityProvider(tenant:providerID:issuer:clientID:jwksURL:jwksJSON:enabled:)``
/// repeats).
public enum IdentityProviderRules {
    /// The longest provider id.
    public static let maximumProviderIDLength = 64

    /// Whether `id` is `oidc.` followed by 1 or more of `A-Z a-z 0-9 . _ -`, at most
    /// ``maximumProviderIDLength`` characters in all.
    public static func isValidProviderID(_ id: String) -> Bool {
        guard id.hasPrefix(IdentityProvider.prefix), id.count > IdentityProvider.prefix.count,
            id.count <= maximumProviderIDLength
        else { return false }
        return id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
    }

    /// Whether `address` is an absolute `https` URL with a host, or an `http` one whose host is a
    /// loopback name or address (development providers), without credentials or a fragment.
    public static func isAcceptableURL(_ address: String) -> Bool {
        guard let components = URLComponents(string: address), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.fragment == nil
        else { return false }
        switch scheme {
        case "https": return true
        case "http": return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
        default: return false
        }
    }
}
