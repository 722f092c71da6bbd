/*
 * state.c - the markings and the operations on them: the model of
 * chstk.h, which every layer above speaks.
 */
#include "internal.h"

const char *
chstk_state_name(enum chstk_state state)
{
	switch (state) {
	case CHSTK_EXEC:
		return "exec";
	case CHSTK_NOEXEC:
		return "noexec";
	default:
		return "default";
	}
}

enum chstk_state
chstk_op_result(enum chstk_op op, enum chstk_state now)
{
	switch (op) {
	case CHSTK_OP_SET_EXEC:
		return CHSTK_EXEC;
	case CHSTK_OP_SET_NOEXEC:
		return CHSTK_NOEXEC;
	case CHSTK_OP_CLEAR_EXEC:
		return now == CHSTK_EXEC ? CHSTK_DEFAULT : now;
	case CHSTK_OP_CLEAR_NOEXEC:
		return now == CHSTK_NOEXEC ? CHSTK_DEFAULT : now;
	case CHSTK_OP_SET_DEFAULT:
		return CHSTK_DEFAULT;
	}
	return now;
}

int
chstk__valid_op(enum chstk_op op)
{
	return op >= CHSTK_OP_SET_EXEC && op <= CHSTK_OP_SET_DEFAULT;
}
