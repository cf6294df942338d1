package com.sandboxgateway.state;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A Lua script run by its SHA-1 digest ({@code EVALSHA}), so its text crosses the network only when Redis does not
 * know it yet (first use, or after a restart or {@code SCRIPT FLUSH}): then {@code EVAL} sends it once and caches it.
 * Every script of the gateway answers a list of integers.
 */
public final class RedisScript {

    private final String text;
    private final String sha;

    public RedisScript(String text) {
        this.text = text;
        this.sha = sha1(text);
    }

    /** Runs the script; one round trip, two when Redis has to be sent its text. */
    public List<Long> run(RedisCommands<String, String> commands, String[] keys, String[] values) {
        try {
            return commands.evalsha(sha, ScriptOutputType.MULTI, keys, values);
        } catch (RedisNoScriptException unknown) {
            return commands.eval(text, ScriptOutputType.MULTI, keys, values);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
