// Swift's `CommandLine` for the runtimes, from the arguments the loader hands to start-up code (see the .c file).
// Nothing to call: linking this module is what it takes.
