package com.sandboxgateway.policy;

import static com.sandboxgateway.policy.OnRoutes.always;
import static com.sandboxgateway.support.Exchanges.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.upstream.SseEvent;

/** The unit of work of one answer, settled by the chain: no Spring, no database (a transaction is a counted call). */
class SettlementTest {

    private final List<String> happened = new ArrayList<>();
    private final Settlement.Batch<String> counters = changes -> happened.add("counters moved by " + changes);

    @Test
    void shouldWriteWhatEveryInspectorStagedInOneTransactionBeforeTheAfterAnswerActions() {
        Transactions transactions = new Transactions(false);
        PolicyChain chain = new PolicyChain(List.of(), List.of(
                always((exchange, answer) -> exchange.settlement().write(write("turn charge", true))),
                always((exchange, answer) -> exchange.settlement().write(write("audit record", false)))),
                List.of(always((exchange, answer) -> {
                    happened.add("after answer");
                    return answer;
                })), ChainObserver.NONE, new GroupCommit(transactions));

        chain.answered(Exchanges.on(Route.RESPONSES_CREATE), Answer.ofJson(tree("{\"id\":\"resp_1\"}"), true));

        assertThat(transactions.begun).isEqualTo(1);
        assertThat(happened).containsExactly("wrote turn charge", "wrote audit record", "turn charge is new",
                "audit record was held already", "after answer");
    }

    @Test
    void shouldSettleAStreamEventThatStagedOnlyBookkeepingOnceItWasRelayed() {
        Transactions transactions = new Transactions(false);
        PolicyChain chain = chainStaging(transactions, "owner rows", "turn charge");
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);

        chain.answered(exchange, event("response.created"));
        happened.add("relayed");
        chain.relayed(exchange);

        assertThat(transactions.begun).isEqualTo(1);
        assertThat(happened).containsExactly("relayed", "wrote owner rows", "wrote turn charge", "owner rows is new",
                "turn charge is new");
    }

    @Test
    void shouldSettleAStreamEventWithAnAuditRecordBeforeItIsRelayedWithItsBookkeepingInOneTransaction() {
        Transactions transactions = new Transactions(false);
        PolicyChain chain = chainStaging(transactions, "audit record", "owner rows");
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);

        chain.answered(exchange, event("response.output_item.done"));
        happened.add("relayed");
        chain.relayed(exchange);

        assertThat(transactions.begun).isEqualTo(1);
        assertThat(happened).containsExactly("wrote audit record", "wrote owner rows", "audit record is new",
                "owner rows is new", "relayed");
    }

    @Test
    void shouldMoveEveryCounterOfTheAnswerInOneCallAfterTheWrites() {
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);
        Settlement settlement = exchange.settlement();
        settlement.write(new Written("spend charge", true) {
            @Override
            public void written(boolean fresh) {
                super.written(fresh);
                settlement.change(counters, "spend +30000");
            }
        });
        settlement.change(counters, "turns -999");

        settlement.settle(new GroupCommit(new Transactions(false)));

        assertThat(happened).containsExactly("wrote spend charge", "spend charge is new", "counters moved by [turns -999, spend +30000]");
    }

    @Test
    void shouldGiveEveryWriteItsFallbackWhenTheTransactionFailsAndStillMoveTheCounters() {
        Settlement settlement = Exchanges.on(Route.RESPONSES_CREATE).settlement();
        settlement.write(new Written("audit record", true) {
            @Override
            public void failed(RuntimeException cause) {
                super.failed(cause);
                throw new GatewayException(ErrorCode.AUDIT_UNAVAILABLE, "neither database nor spool");
            }
        });
        settlement.write(new Written("owner rows", true));
        settlement.change(counters, "turns -999");

        assertThatThrownBy(() -> settlement.settle(new GroupCommit(new Transactions(true))))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE));
        assertThat(happened).containsExactly("audit record falls back after DataAccessResourceFailureException",
                "owner rows falls back after DataAccessResourceFailureException", "counters moved by [turns -999]");
    }

    /**
     * A write that takes no transaction (the embedded store's maps) is made on its own, first; with nothing else staged
     * no transaction is begun, and a failed transaction leaves its outcome as it was.
     */
    @Test
    void shouldMakeAWriteThatJoinsNoTransactionOnItsOwnBeforeTheTransaction() {
        Settlement settlement = Exchanges.on(Route.RESPONSES_CREATE).settlement();
        Transactions transactions = new Transactions(false);
        settlement.write(new Direct("owner record"));
        settlement.settle(new GroupCommit(transactions));
        assertThat(transactions.begun).isZero();

        settlement.write(write("audit record", true));
        settlement.write(new Direct("turn charge"));
        settlement.settle(new GroupCommit(new Transactions(true)));

        assertThat(happened).containsExactly("wrote owner record", "owner record is new", "wrote turn charge",
                "turn charge is new", "audit record falls back after DataAccessResourceFailureException");
    }

    @Test
    void shouldTouchNeitherDatabaseNorCountersWhenNothingWasStaged() {
        Transactions transactions = new Transactions(false);
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);

        exchange.settlement().settle(new GroupCommit(transactions));

        assertThat(transactions.begun).isZero();
        assertThat(happened).isEmpty();
    }

    @Test
    void shouldSettleOnlyWhatWasStagedSinceTheLastAnswer() {
        Settlement settlement = Exchanges.on(Route.RESPONSES_CREATE).settlement();
        GroupCommit commits = new GroupCommit(new Transactions(false));
        settlement.write(write("owner rows of response.created", true));
        settlement.settle(commits);
        settlement.write(write("turn charge of response.completed", true));

        settlement.settle(commits);

        assertThat(happened).containsExactly("wrote owner rows of response.created", "owner rows of response.created is new",
                "wrote turn charge of response.completed", "turn charge of response.completed is new");
    }

    /** A chain whose one inspector stages a new write of each name for every answer. */
    private PolicyChain chainStaging(Transactions transactions, String... writes) {
        return new PolicyChain(List.of(), List.of(always((exchange, answer) -> {
            for (String what : writes) {
                exchange.settlement().write(write(what, true));
            }
        })), List.of(), ChainObserver.NONE, new GroupCommit(transactions));
    }

    private static Answer event(String type) {
        String data = "{\"type\":\"" + type + "\",\"sequence_number\":0}";
        return Answer.ofEvent(new SseEvent(("event: " + type + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8),
                type, data, true), tree(data));
    }

    private Settlement.Write write(String what, boolean fresh) {
        return new Written(what, fresh);
    }

    /** A write that notes what happens to it; an audit record must precede the relay, the rest is bookkeeping. */
    private class Written implements Settlement.Write {

        private final String what;
        private final boolean fresh;

        Written(String what, boolean fresh) {
            this.what = what;
            this.fresh = fresh;
        }

        @Override
        public boolean write() {
            happened.add("wrote " + what);
            return fresh;
        }

        @Override
        public void written(boolean isNew) {
            happened.add(what + (isNew ? " is new" : " was held already"));
        }

        @Override
        public void failed(RuntimeException cause) {
            happened.add(what + " falls back after " + cause.getClass().getSimpleName());
        }

        @Override
        public Settlement.Timing timing() {
            return what.startsWith("audit") ? Settlement.Timing.BEFORE_RELAY : Settlement.Timing.AFTER_RELAY;
        }
    }

    /** A write to a store that takes no transaction. */
    private class Direct extends Written {

        Direct(String what) {
            super(what, true);
        }

        @Override
        public boolean joinsTransaction() {
            return false;
        }
    }

    /** Transactions that only count themselves, or fail as a database that went away does. */
    private static final class Transactions implements TransactionOperations {

        private final boolean fail;
        private int begun;

        Transactions(boolean fail) {
            this.fail = fail;
        }

        @Override
        public <T> T execute(TransactionCallback<T> action) throws TransactionException {
            begun++;
            if (fail) {
                throw new DataAccessResourceFailureException("connection refused");
            }
            return action.doInTransaction(null);
        }
    }
}
