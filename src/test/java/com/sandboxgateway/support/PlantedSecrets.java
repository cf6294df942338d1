package com.sandboxgateway.support;

import java.security.SecureRandom;

/** Credentials to plant in requests: fresh each call, so no test can pass by matching a fixed value. */
public final class PlantedSecrets {

    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private PlantedSecrets() {
    }

    /** A GitHub personal access token in the real format ({@code ghp_} and 36 characters). */
    public static String githubToken() {
        StringBuilder token = new StringBuilder("ghp_");
        for (int i = 0; i < 36; i++) {
            token.append(ALPHANUMERIC.charAt(RANDOM.nextInt(ALPHANUMERIC.length())));
        }
        return token.toString();
    }
}
