package com.sandboxgateway.audit;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.policy.Settlement;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Writes to the database, falls back to the spool when the database fails, and replays the spool in
 * order once the database answers again. While anything is spooled, new records queue behind it, so
 * the chain keeps the order in which records were made. Fails closed: a record that reaches neither
 * the database nor the spool fails its request with {@code audit_unavailable}.
 */
public final class SpoolingAuditLog implements AuditLog {

    private static final Logger log = LoggerFactory.getLogger(SpoolingAuditLog.class);

    private final AuditStore store;
    private final AuditSpool spool;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile long spooled;
    private final Counter stored;
    private final Counter spooledWrites;
    private final Counter failed;
    private final Counter replays;

    private final Supplier<String> traceIds;

    SpoolingAuditLog(AuditStore store, AuditSpool spool, MeterRegistry meters) {
        this(store, spool, meters, () -> null);
    }

    /**
     * @param meters gets {@code gateway.audit.writes} (by outcome), {@code gateway.audit.spool.depth}, {@code gateway.audit.replays}
     * @param traceIds the trace the calling thread works in, or {@code null}: stamped on every record it makes
     */
    SpoolingAuditLog(AuditStore store, AuditSpool spool, MeterRegistry meters, Supplier<String> traceIds) {
        this.traceIds = traceIds;
        this.store = store;
        this.spool = spool;
        this.spooled = Math.max(0, spool.depth());
        this.stored = writes(meters, "stored");
        this.spooledWrites = writes(meters, "spooled");
        this.failed = writes(meters, "failed");
        this.replays = Counter.builder(AuditMetrics.REPLAYS).description("Spooled audit records replayed into the store")
                .register(meters);
        Gauge.builder(AuditMetrics.SPOOL_DEPTH, this, SpoolingAuditLog::spoolDepth)
                .description("Audit records waiting in the local spool for the store").register(meters);
    }

    private static Counter writes(MeterRegistry meters, String outcome) {
        return Counter.builder(AuditMetrics.WRITES).description("Audit records written, by where they went")
                .tag("outcome", outcome).register(meters);
    }

    @Override
    public void record(AuditRecord made) {
        AuditRecord record = made.withTraceId(traceIds.get());
        if (spooled == 0) {
            try {
                store.append(record);
                stored.increment();
                return;
            } catch (DataAccessException | TransactionException e) {
                storeUnreachable(e);
            }
        }
        spool(record);
    }

    /**
     * Stages the record in the exchange's settlement, to be appended with the settlement's other writes in one
     * transaction; it is durable once the settlement is settled. While records are spooled it is spooled at once,
     * behind them; when the settlement's transaction fails it is spooled then. Either way it fails closed as
     * {@link #record} does.
     *
     * @param kept told once the record is durable and new (not for a record, or call, the store already held)
     */
    public void stage(Settlement settlement, AuditRecord made, Runnable kept) {
        AuditRecord record = made.withTraceId(traceIds.get());
        if (spooled != 0) {
            spool(record);
            kept.run();
            return;
        }
        settlement.write(new StagedRecord(record, kept));
    }

    /** A record staged in a settlement: appended in its transaction (or before it), or spooled when that fails. */
    private final class StagedRecord implements Settlement.Write {

        private final AuditRecord record;
        private final Runnable kept;

        StagedRecord(AuditRecord record, Runnable kept) {
            this.record = record;
            this.kept = kept;
        }

        @Override
        public boolean write() {
            return store.appendInTransaction(record);
        }

        @Override
        public boolean joinsTransaction() {
            return store.joinsTransaction();
        }

        @Override
        public void written(boolean fresh) {
            stored.increment();
            if (fresh) {
                kept.run();
            }
        }

        @Override
        public void failed(RuntimeException cause) {
            storeUnreachable(cause);
            spool(record);
            kept.run();
        }

        /** The tamper-evident audit precedes what it records: no client sees a call whose record is not durable. */
        @Override
        public Settlement.Timing timing() {
            return Settlement.Timing.BEFORE_RELAY;
        }
    }

    private static void storeUnreachable(RuntimeException e) {
        log.warn("Audit store unreachable ({}); spooling audit records until it is back", e.getClass().getSimpleName());
    }

    private void spool(AuditRecord record) {
        lock.lock();
        try {
            spool.append(record);
            spooled++;
            spooledWrites.increment();
        } catch (IOException e) {
            failed.increment();
            log.error("Audit record could be written neither to the database nor to the spool", e);
            throw new GatewayException(ErrorCode.AUDIT_UNAVAILABLE,
                    "The gateway cannot record this request in its audit trail right now, so it does not proceed. Retry shortly.");
        } finally {
            lock.unlock();
        }
    }

    /** Moves spooled records into the database, in order; leaves them spooled if it is still down. */
    public void replay() {
        if (spooled == 0) {
            return;
        }
        lock.lock();
        try {
            List<AuditRecord> records = spool.read();
            for (AuditRecord record : records) {
                store.append(record);
            }
            spool.clear();
            spooled = 0;
            replays.increment(records.size());
            log.info("Replayed {} spooled audit records into the audit store", records.size());
        } catch (DataAccessException | TransactionException e) {
            log.debug("Audit store still unreachable; {} records stay spooled", spooled);
        } catch (IOException e) {
            log.error("Cannot read the audit spool", e);
        } finally {
            lock.unlock();
        }
    }

    /** Records waiting in the spool. */
    public long spoolDepth() {
        return spooled;
    }
}
