import LatchHTTP

/// Sets each request's ``HTTPRequest/remoteAddress`` to the client's address before routing, so
/// rate limits, audit events and logs see the client and not the proxy in front of it.
///
/// The socket peer is the client unless it lies in a trusted proxy range (`--trusted-proxy`). From
/// a trusted peer, the forwarded chain is read right to left — `Forwarded: for=` (RFC 7239 § 5.2)
/// when present, else `X-Forwarded-For` — skipping hops that are themselves trusted proxies; the
/// first untrusted hop is the client. Everything left of it was written by the client and is not
/// believed. A hop that is not an IP address (`unknown`, an obfuscated `_name`, garbage) ends the
/// walk at the last trusted hop. Without trusted ranges, forwarding headers are ignored entirely.
struct ClientAddressResolver: HTTPResponder {
    let trusted: [AddressRange]
    let next: any HTTPResponder

    func respond(to request: HTTPRequest) -> HTTPResponse {
        next.respond(to: resolved(request))
    }

    func respond(to request: HTTPRequest, refusedWith error: HTTPError) -> HTTPResponse {
        next.respond(to: resolved(request), refusedWith: error)
    }

    func maximumBodyBytes(method: String, path: String) -> Int? { next.maximumBodyBytes(method: method, path: path) }

    /// `request` with its client address resolved.
    func resolved(_ request: HTTPRequest) -> HTTPRequest {
        guard !trusted.isEmpty, isTrusted(request.peerAddress) else { return request }
        var resolved = request
        resolved.remoteAddress = clientAddress(peer: request.peerAddress, headers: request.headers)
        return resolved
    }

    /// The client address behind a trusted `peer`.
    func clientAddress(peer: String, headers: HTTPHeaders) -> String {
        let forwarded = headers.values(for: "forwarded")
        let hops =
            forwarded.isEmpty
            ? headers.values(for: "x-forwarded-for").flatMap { $0.split(separator: ",") }.map(Self.trimmed)
            : forwarded.flatMap(Self.forwardedFor)
        var client = peer
        for hop in hops.reversed() {
            guard let (address, bytes) = Self.address(hop) else { break }
            client = address
            if !isTrusted(bytes) { break }
        }
        return client
    }

    private func isTrusted(_ address: String) -> Bool { IPAddress.bytes(of: address).map(isTrusted) ?? false }

    private func isTrusted(_ bytes: [UInt8]) -> Bool { trusted.contains { $0.contains(bytes: bytes) } }

    /// The `for=` values of a `Forwarded` field value, in order (RFC 7239 § 4).
    static func forwardedFor(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, trimmed(parts[0]).lowercased() == "for" {
                    return trimmed(parts[1])
                }
            }
            return nil
        }
    }

    /// The IP address of a hop (`192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"`, `2001:db8::1`)
    /// with its bytes, parsed once, or `nil` when it is none.
    static func address(_ hop: String) -> (String, [UInt8])? {
        var text = Substring(hop)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        if text.hasPrefix("[") {
            guard let end = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<end]
        } else if text.filter({ $0 == ":" }).count == 1 {
            text = text.prefix { $0 != ":" }
        }
        let candidate = String(text)
        return IPAddress.bytes(of: candidate).map { (candidate, $0) }
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
