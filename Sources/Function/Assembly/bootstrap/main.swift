import CognitoTriggers

// The Lambda function behind all three custom-auth triggers, with the built-in steps.
CognitoTriggerFunction.run()
