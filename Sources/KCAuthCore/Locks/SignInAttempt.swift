/// What taking the sign-in lock gave: the lock, or the record of the process that holds it.
public enum SignInAttempt {
    case held(any SignInHolding)
    case busy(SignInRecord?)
}
