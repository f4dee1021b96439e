import Foundation

/// The shared secret that signs webhook requests (``WebhookSignature``), read from a file so it
/// never appears on a command line, in the environment or in a config file.
///
/// Its description is `<redacted>`, so no log line, error or debug print can show it.
///
/// ```swift
/// let secret = try WebhookSecret(contentsOfFile: "/etc/latch/sms-webhook.secret")
/// ```
public struct WebhookSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key bytes: the file's content as UTF-8, without surrounding whitespace.
    let bytes: [UInt8]

    /// A secret of `text`'s UTF-8 bytes, surrounding whitespace (a trailing newline) removed.
    /// - Throws: ``ConfigurationError`` when nothing is left.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ConfigurationError("the webhook secret is empty") }
        bytes = Array(trimmed.utf8)
    }

    /// Reads the secret from the file at `path`, without its surrounding whitespace.
    /// - Throws: ``ConfigurationError`` naming `option` and the path (never the content) when the
    ///   file cannot be read, is not UTF-8 text, or holds nothing but whitespace.
    public init(contentsOfFile path: String, option: String = "--sms-webhook-secret-file") throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("\(option): cannot read the secret file '\(path)'")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError("\(option): the secret file '\(path)' is not UTF-8 text")
        }
        do {
            try self.init(text)
        } catch {
            throw ConfigurationError("\(option): the secret file '\(path)' is empty")
        }
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
