import Foundation
import LatchServer

let usage = """
    usage: latchd serve [--listen HOST:PORT] [--data-dir DIR] [--config FILE] [--database-url URL]
                        [--public-url URL] [--durability full|normal] [--http-threads N] [--dev] [--emulator]
           latchd tenant create NAME [--enumeration-protection] [--require-password] [--require-attribute NAME]...
                                [--refresh-grace-seconds N]
           latchd tenant list
           latchd client create --id ID [--tenant T] [--name NAME] [--scope SCOPE]...
           latchd client list [--tenant T]
           latchd user create --email ADDRESS [--tenant T] [--name NAME] [--password-stdin]
           latchd user list [--tenant T]
           latchd keys list|rotate [--tenant T] [--algorithm ES256|RS256] [--now]
           latchd outbox [--tenant T] [--to ADDRESS] [--limit N]
           latchd audit [--tenant T] [--limit N]
    Every admin command takes --data-dir DIR (default ./latch-data).

    """

exit(LatchdMain.run(Array(CommandLine.arguments.dropFirst()), usage: usage))
