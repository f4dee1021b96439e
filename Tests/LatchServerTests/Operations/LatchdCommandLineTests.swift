import Foundation
import Testing

/// The command line of the built `latchd`: help prints and does nothing else, and a mistake is a
/// usage error (exit 2) that names the option. Every run is a child process in an empty temporary
/// working directory, which must stay empty (no `latch-data`).
@Suite("latchd command line")
struct LatchdCommandLineTests {
    /// Every command, by its words.
    static let commands: [[String]] = [
        ["serve"], ["tenant", "create"], ["tenant", "update"], ["tenant", "list"], ["client", "create"], ["client", "list"],
        ["user", "create"], ["user", "list"], ["keys", "list"], ["keys", "rotate"], ["admin-token", "create"],
        ["admin-token", "list"], ["admin-token", "revoke"], ["outbox"], ["audit"],
    ]

    @Test("COMMAND --help and -h print the command's help, exit 0 and create nothing", arguments: commands, ["--help", "-h"])
    func commandHelp(command: [String], flag: String) throws {
        let run = try LatchdRun(command + [flag])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("usage: latchd \(command.joined(separator: " "))"), "\(run.stdout)")
        #expect(run.stdout.contains("--help"))
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.created.isEmpty, "help created \(run.created)")
    }

    @Test(
        "help anywhere among the arguments wins over the options, even wrong ones",
        arguments: [
            ["serve", "--listen", "127.0.0.1:0", "--dev", "--help"], ["serve", "--lisen", "-h"], ["tenant", "-h", "create"],
            ["client", "--tenant", "acme", "create", "--id", "app", "--help"],
            ["user", "create", "--email", "ada@example.com", "--password-stdin", "-h"],
            ["keys", "rotate", "--now", "--help"], ["outbox", "--limit", "0", "-h"],
        ])
    func helpAnywhere(arguments: [String]) throws {
        let run = try LatchdRun(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("usage: latchd "), "\(run.stdout)")
        #expect(run.created.isEmpty, "help created \(run.created)")
    }

    @Test(
        "latchd alone, help, --help, -h, help COMMAND and GROUP --help",
        arguments: [
            (["help"], "latchd keys rotate"), (["--help"], "latchd audit"), (["-h"], "latchd serve"),
            (["help", "serve"], "--log-format text|json"), (["help", "tenant", "create"], "--refresh-grace-seconds N"),
            (["help", "serve"], "--sms-webhook-url URL"), (["serve", "--help"], "--sms-webhook-secret-file PATH"),
            (["serve", "-h"], "--outbox-max-attempts N"), (["outbox", "--help"], "--failed"),
            (["tenant", "--help"], "latchd tenant list"), (["keys", "-h"], "latchd keys rotate"),
        ])
    func topLevelHelp(arguments: [String], expected: String) throws {
        let run = try LatchdRun(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(run.stdout)")
        #expect(run.created.isEmpty)
    }

    @Test("latchd with no arguments prints the usage and exits 2")
    func bare() throws {
        let run = try LatchdRun([])
        #expect(run.status == 2)
        #expect(run.stderr.contains("latchd serve"))
        #expect(run.created.isEmpty)
    }

    @Test("serve --help in an empty directory exits at once, binds nothing and creates nothing")
    func serveHelpStartsNothing() throws {
        let started = ContinuousClock.now
        let run = try LatchdRun(["serve", "--dev", "--listen", "127.0.0.1:0", "--data-dir", "data", "--help"])
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("listening"), "\(run.stderr)")
        #expect(run.stdout.contains("--tls-cert FILE"))
        #expect(run.created.isEmpty, "serve --help created \(run.created)")
    }

    @Test(
        "an unknown option, a missing or unwanted value, or a bad value exits 2 and names the option",
        arguments: [
            (["serve", "--lisen", "127.0.0.1:0"], "'--lisen' for 'serve'"), (["tenant", "list", "--bogus"], "'--bogus'"),
            (["client", "create", "--id", "app", "--secret", "s"], "'--secret'"), (["outbox", "-x"], "'-x'"),
            (["keys", "list", "--now"], "'--now' for 'keys list'"), (["audit", "--to", "ada@example.com"], "'--to'"),
            (["serve", "--listen"], "'--listen' needs a value"), (["outbox", "--limit"], "'--limit' needs a value"),
            (["serve", "--data-dir", "--dev"], "'--data-dir' needs a value"), (["serve", "--dev=yes"], "'--dev' takes no value"),
            (["serve", "--log-format", "xml"], "'--log-format'"), (["serve", "--tls-cert", "cert.pem"], "'--tls-key"),
            (["serve", "--tls", "--tls-key", "key.pem"], "'--tls-cert"),
            (["serve", "--durability", "sometimes"], "'--durability'"),
            (["serve", "--listen", "nowhere"], "'--listen'"), (["serve", "--http-threads", "0"], "'--http-threads'"),
            (["serve", "extra"], "'extra'"), (["user", "create"], "'--email"), (["tenant", "create"], "NAME"),
            (["keys", "rotate", "--algorithm", "HS256"], "'--algorithm'"), (["outbox", "--limit", "many"], "'--limit'"),
            (["tenant"], "'tenant' needs a command"), (["tenant", "frob"], "'tenant frob'"),
            (["frobnicate", "--help"], "'frobnicate'"),
            (["serve", "--trusted-proxy", "10.0.0.0/33"], "'--trusted-proxy'"),
            (["serve", "--trusted-proxy", "proxy.example.com"], "'--trusted-proxy'"),
            (["tenant", "create", "t", "--rate-limit", "flow-starts=30"], "'--rate-limit'"),
            (["tenant", "update", "t", "--rate-limit", "logins=30/5m"], "'--rate-limit'"),
            (["tenant", "update", "t", "--rate-limit", "code-sends=-1/5m"], "'--rate-limit'"),
            (["tenant", "update"], "NAME"),
            (["admin-token", "create"], "'--tenant T'"),
            (["admin-token", "create", "--tenant", "acme", "--name", String(repeating: "l", count: 101)], "'--name'"),
            (["admin-token", "revoke"], "ID"), (["admin-token", "revoke", "a", "b"], "'b'"),
            (["serve", "--sms-webhook-url", "ftp://gateway.example.com/send"], "'--sms-webhook-url'"),
            (["serve", "--sms-webhook-url", "gateway.example.com"], "'--sms-webhook-url'"),
            (["serve", "--sms-webhook-secret-file"], "'--sms-webhook-secret-file' needs a value"),
            (["serve", "--outbox-max-attempts", "0"], "'--outbox-max-attempts'"), (["outbox", "--failed=yes"], "'--failed'"),
        ])
    func usageErrors(arguments: [String], named: String) throws {
        let run = try LatchdRun(arguments)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.hasPrefix("latchd: "), "\(run.stderr)")
        #expect(run.stderr.contains(named), "\(run.stderr)")
        #expect(run.stderr.contains("usage: latchd "), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.created.isEmpty, "a usage error created \(run.created)")
    }
}
