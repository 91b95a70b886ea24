/// A one-line progress bar on standard error, drawn only when it is a terminal.
final class Progress: Sendable {
    private let total: Int
    private let console: Console

    init(total: Int, console: Console) {
        self.total = total
        self.console = console
    }

    func update(_ done: Int) {
        guard console.showsProgress, total > 1 else { return }
        let width = 30
        let filled = width * done / total
        console.error(
            "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                + "] \(done)/\(total) replays")
    }

    func finish() {
        guard console.showsProgress, total > 1 else { return }
        console.error("\r" + String(repeating: " ", count: 50) + "\r")
    }
}
