/// How many connections the loopback listener keeps, and for how long, so silent
/// connections cannot starve the browser's.
///
/// A local process could open connections and send nothing: kept forever, they used up every
/// slot, and the browser's redirect was closed unanswered. Now a connection has deadlines, and
/// when the slots are full the oldest connection still reading its request is dropped for the new
/// one: a browser sends its request at once after connecting, so its connection is the newest.
struct LoopbackLimits: Sendable {
    /// More simultaneous connections than a browser opens to one origin.
    var maxConnections = 32
    /// A connection that sends nothing for this long while its request head is incomplete is
    /// closed (browsers reconnect transparently for a pre-connected socket that was closed).
    var idleSeconds: Double = 5
    /// The whole request head must arrive within this long after the connection was accepted,
    /// however slowly it trickles in.
    var headSeconds: Double = 15
    /// A response the client does not read within this long is given up.
    var writeSeconds: Double = 10

    static let standard = LoopbackLimits()
}
