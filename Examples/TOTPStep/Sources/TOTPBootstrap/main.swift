import CognitoTriggers
import TOTPChallenge

// The three triggers with the built-in steps and TOTP: set CHALLENGE_FLOW=srp+totp (or totp, captcha+totp, …).
CognitoTriggerFunction.run(steps: [TOTPStep()])
