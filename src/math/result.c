/* Messages for ik_result codes. */
#include <ikit/result.h>

#define IK_RESULT_MESSAGE_ITEM(name, message) message,
static const char *const result_messages[] = {IK_RESULT_LIST(IK_RESULT_MESSAGE_ITEM)};
#undef IK_RESULT_MESSAGE_ITEM

const char *ik_result_str(ik_result result) {
    if ((int)result < 0 || (int)result >= (int)IK_RESULT_COUNT) return "unknown result code";
    return result_messages[result];
}
