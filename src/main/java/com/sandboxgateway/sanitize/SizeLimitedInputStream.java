package com.sandboxgateway.sanitize;

import java.io.InputStream;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/** Refuses a file with {@code file_too_large} the moment it passes the limit, before it is all read. */
final class SizeLimitedInputStream extends CountingInputStream {

    private final long limit;
    private final String limitText;
    private long count;

    SizeLimitedInputStream(InputStream in, long limit) {
        super(in);
        this.limit = limit;
        this.limitText = describe(limit);
    }

    /** {@code 5MB} rather than {@code 5242880B}, as operators wrote it. */
    static String describe(long bytes) {
        String[] units = {"GB", "MB", "KB"};
        long[] sizes = {1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < units.length; i++) {
            if (bytes % sizes[i] == 0) {
                return bytes / sizes[i] + units[i];
            }
        }
        return bytes + "B";
    }

    @Override
    protected void counted(long bytes) {
        count += bytes;
        if (count > limit) {
            throw new GatewayException(ErrorCode.FILE_TOO_LARGE,
                    "The file is larger than the " + limitText + " the policy allows. Split it or upload a smaller extract.");
        }
    }
}
