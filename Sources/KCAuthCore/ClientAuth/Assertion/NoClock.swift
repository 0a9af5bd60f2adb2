/// Public clients need neither time nor randomness to authenticate.
struct NoClock: TimeSource {
    func now() -> Double { 0 }
}
