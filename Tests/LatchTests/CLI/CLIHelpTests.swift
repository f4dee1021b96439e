import Foundation
import Testing

/// Help and usage errors of the built `latch`: help prints the subcommand's help and does nothing
/// else (no network: the server is an unreachable port; no credential file), and a mistake exits 2
/// naming the option.
@Suite("latch help and usage errors")
struct CLIHelpTests {
    /// Every subcommand, by its spelling.
    static let subcommands = ["signup", "signin", "reset-password", "token", "whoami", "accounts", "signout", "mfa", "help"]
    /// A server nothing listens on, so that any request would fail with exit 6.
    static let unreachable = ["--server", "http://127.0.0.1:1"]

    @Test("SUBCOMMAND --help and -h print its help, exit 0 and write nothing", arguments: subcommands, ["--help", "-h"])
    func subcommandHelp(subcommand: String, flag: String) async throws {
        let home = try CLIHome()
        defer { home.remove() }
        let run = try await CLIProcess.run(home: home, Self.unreachable + [subcommand, flag], input: "ada@example.com\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("USAGE: latch \(subcommand)"), "\(run.stdout)")
        #expect(run.stdout.contains("GLOBAL OPTIONS"))
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(Self.written(in: home).isEmpty, "help wrote \(Self.written(in: home))")
    }

    @Test(
        "help anywhere wins over the other arguments, and help SUBCOMMAND",
        arguments: [
            (["signin", "--email", "ada@example.com", "--password-stdin", "-h"], "USAGE: latch signin"),
            (["--help", "token", "--force-refresh"], "USAGE: latch token"),
            (["whoami", "--bogus", "--help"], "USAGE: latch whoami"), (["help", "signout"], "USAGE: latch signout"),
            (["help", "reset-password", "-h"], "USAGE: latch reset-password"),
            (["--ca-file", "/nonexistent.pem", "accounts", "--help"], "USAGE: latch accounts"), (["-h"], "EXIT STATUS"),
            (["mfa", "list", "--help"], "USAGE: latch mfa list [--account EMAIL]"), (["help", "mfa"], "USAGE: latch mfa list"),
            (["signin", "--help"], "--register-phone +E164"), (["token", "-h"], "LATCH_MFA_CODE"), (["--help"], "LATCH_MFA_CODE"),
            (["signin", "--help"], "--browser-command CMD"), (["signin", "-h"], "--device"), (["--help"], "--browser"),
            (["token", "--help"], "[--browser-command CMD]"), (["help", "signin"], "the verification page"),
        ])
    func helpAnywhere(arguments: [String], expected: String) async throws {
        let home = try CLIHome()
        defer { home.remove() }
        let run = try await CLIProcess.run(home: home, Self.unreachable + arguments, input: "secret\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")
        #expect(Self.written(in: home).isEmpty)
    }

    @Test(
        "an unknown option or subcommand, or a missing or unwanted value, exits 2 and names it",
        arguments: [
            (["signin", "--bogus"], "unknown option '--bogus' for 'latch signin'"), (["--frob", "token"], "'--frob'"),
            (["signin", "--email"], "'--email' needs a value"),
            (["signup", "--email", "--password-stdin"], "'--email' needs a value"),
            (["token", "--scope"], "'--scope' needs a value"), (["--json=yes", "accounts"], "'--json' takes no value"),
            (["whoami", "--force-refresh"], "'--force-refresh' does not apply to 'latch whoami'"),
            (["--ca-file"], "'--ca-file' needs a value"),
            (["frobnicate"], "'frobnicate'"), (["help", "frobnicate"], "'frobnicate'"),
            (["mfa"], "'latch mfa' needs an action: 'latch mfa list'"), (["mfa", "remove"], "unknown action 'remove'"),
            (["signin", "--mfa-method"], "'--mfa-method' needs a value"),
            (["token", "--register-email", "a@example.com"], "'--register-email' does not apply to 'latch token'"),
            (["mfa", "list", "--scope", "openid"], "'--scope' does not apply to 'latch mfa'"),
        ])
    func usageErrors(arguments: [String], named: String) async throws {
        let home = try CLIHome()
        defer { home.remove() }
        let run = try await CLIProcess.run(home: home, Self.unreachable + arguments)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.hasPrefix("latch: "), "\(run.stderr)")
        #expect(run.stderr.contains(named), "\(run.stderr)")
        #expect(run.stderr.contains("USAGE: latch"), "\(run.stderr)")
        #expect(Self.written(in: home).isEmpty)
    }

    @Test("--ca-file must name a readable file")
    func certificateAuthorityFile() async throws {
        let home = try CLIHome()
        defer { home.remove() }
        let file = home.path + "/ca.pem"
        try Data("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8).write(to: URL(fileURLWithPath: file))
        let accepted = try await CLIProcess.run(home: home, Self.unreachable + ["--ca-file", file, "accounts"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("No accounts"))
        for path in ["/nonexistent.pem", home.path] {
            let rejected = try await CLIProcess.run(home: home, Self.unreachable + ["--ca-file", path, "accounts"])
            #expect(rejected.status == 2, "\(rejected.stderr)")
            #expect(rejected.stderr.contains("'--ca-file'") && rejected.stderr.contains(path), "\(rejected.stderr)")
        }
        #expect(Self.written(in: home).isEmpty)
    }

    /// The files under `home` other than those a test put there itself.
    static func written(in home: CLIHome) -> [String] {
        let files = FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? []
        return files.filter { $0 != "ca.pem" }
    }
}
