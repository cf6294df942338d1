package com.sandboxgateway.sanitize;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongSupplier;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * Zip-bomb limits for one file, all its compressed parts together: how many entries an archive or workbook
 * may hold, how far one part may expand relative to its compressed size, and how much all parts may expand
 * to. The bytes are counted as they are inflated, so sizes an archive claims in its directory do not count.
 */
final class ExpansionLimits {

    /** Small parts may expand further than the ratio: a few kilobytes of repeated markup compress very well. */
    private static final long RATIO_FLOOR = 1 << 20;

    private final long maxTotal;
    private final int maxRatio;
    private final int maxEntries;
    private long total;

    ExpansionLimits(long maxTotal, int maxRatio, int maxEntries) {
        this.maxTotal = maxTotal;
        this.maxRatio = maxRatio;
        this.maxEntries = maxEntries;
    }

    /** @throws GatewayException {@code invalid_file} when an archive or workbook holds more entries than allowed */
    void entries(int count, String what) {
        if (count > maxEntries) {
            throw bomb(what + " holds " + count + " entries, more than the " + maxEntries + " the policy allows");
        }
    }

    /** The content of gzip data, its members inflated one after another within the limits. */
    InputStream gunzip(InputStream compressed) throws IOException {
        long[] read = new long[1];
        InputStream counted = new CountingInputStream(compressed) {
            @Override
            protected void counted(long bytes) {
                read[0] += bytes;
            }
        };
        InputStream inflated;
        try {
            inflated = new GZIPInputStream(counted, 64 * 1024);
        } catch (ZipException | EOFException e) {
            throw corrupt();
        }
        return limit(new FilterInputStream(inflated) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                try {
                    return super.read(buffer, offset, length);
                } catch (ZipException | EOFException e) {
                    throw corrupt();
                }
            }
        }, () -> read[0], "The gzip data");
    }

    private static GatewayException corrupt() {
        return new GatewayException(ErrorCode.INVALID_FILE, "The gzip data is corrupt or cut short. Compress the file again "
                + "and upload it.");
    }

    /**
     * The inflated bytes of one part, refused with {@code invalid_file} the moment they pass a limit.
     *
     * @param compressed how many compressed bytes the part has (or has had read so far)
     */
    InputStream limit(InputStream inflated, LongSupplier compressed, String what) {
        return new CountingInputStream(inflated) {
            private long count;

            @Override
            protected void counted(long bytes) {
                count += bytes;
                total += bytes;
                if (total > maxTotal) {
                    throw bomb("it expands to more than the " + SizeLimitedInputStream.describe(maxTotal)
                            + " the policy allows (gateway.policy.org.files.max-expanded-size)");
                }
                if (count > RATIO_FLOOR && count > maxRatio * Math.max(1, compressed.getAsLong())) {
                    throw bomb(what + " expands more than " + maxRatio + " times its compressed size");
                }
            }
        };
    }

    private static GatewayException bomb(String problem) {
        return new GatewayException(ErrorCode.INVALID_FILE, "The file was refused as a possible zip bomb: " + problem
                + ". Send the data uncompressed or split it.");
    }
}
