// CognitoTriggers: work in progress.
