package com.sandboxgateway.simulator;

/** Chooses and checks the port of a standalone simulator. */
final class SimulatorPort {

    private static final int HIGHEST_PORT = 65_535;

    private SimulatorPort() {
    }

    /** The first argument wins, then the environment value, then {@link OfflineSimulator#DEFAULT_PORT}. */
    static int resolve(String[] args, String environmentValue) {
        if (args.length > 0) {
            return parse(args[0], "the first argument");
        }
        if (environmentValue != null && !environmentValue.isBlank()) {
            return parse(environmentValue, "SIMULATOR_PORT");
        }
        return OfflineSimulator.DEFAULT_PORT;
    }

    static int requireValid(int port) {
        if (port < 0 || port > HIGHEST_PORT) {
            throw new IllegalArgumentException(
                    "Simulator port must be between 0 and " + HIGHEST_PORT + " (0 = any free port), got " + port);
        }
        return port;
    }

    private static int parse(String value, String source) {
        try {
            return requireValid(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Simulator port from " + source + " must be a number between 0 and " + HIGHEST_PORT
                            + ", got '" + value + "'", e);
        }
    }
}
