// CognitoEvents: work in progress.
