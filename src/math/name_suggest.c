/* "Did you mean": the names closest to a mistyped one, by Levenshtein edit
 * distance (insertions, deletions and substitutions each cost 1), ignoring
 * case; names that contain the typed text (or are contained in it) come
 * first. Shared by the readers' not-found messages and ikc. */
#include <ikit/error.h>

#include <ctype.h>
#include <string.h>

#define IK_SUGGEST_NAME_MAX 256
#define IK_SUGGEST_MAX 8

/* Names beyond 256 bytes are compared on their first 256. */
static int edit_distance(const char *a, const char *b) {
    int row[IK_SUGGEST_NAME_MAX + 1];
    size_t la = strlen(a), lb = strlen(b), i, j;
    if (la > IK_SUGGEST_NAME_MAX) la = IK_SUGGEST_NAME_MAX;
    if (lb > IK_SUGGEST_NAME_MAX) lb = IK_SUGGEST_NAME_MAX;
    for (j = 0; j <= lb; ++j) row[j] = (int)j;
    for (i = 1; i <= la; ++i) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (j = 1; j <= lb; ++j) {
            int above = row[j];
            int cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            int best = diagonal + cost;
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

static int contains_ignoring_case(const char *haystack, const char *needle) {
    size_t n = strlen(needle), i, k;
    if (n == 0) return 0;
    for (i = 0; haystack[i]; ++i) {
        for (k = 0; k < n && haystack[i + k]; ++k)
            if (tolower((unsigned char)haystack[i + k]) != tolower((unsigned char)needle[k])) break;
        if (k == n) return 1;
    }
    return 0;
}

/* Score: containment first, then edit distance; names further than half
 * their length away are not suggested (-1). */
static int score(const char *name, const char *wanted) {
    int d = edit_distance(name, wanted);
    int limit = (int)(strlen(wanted) > strlen(name) ? strlen(wanted) : strlen(name)) / 2 + 1;
    if (contains_ignoring_case(name, wanted) || contains_ignoring_case(wanted, name)) return d;
    return d <= limit ? 1000 + d : -1;
}

int ik_error_closest_names(const char *const *names, int count, const char *wanted, int *best, int max) {
    int best_score[IK_SUGGEST_MAX], found = 0, i, k;
    if (!names || !wanted || !best || max < 1) return 0;
    if (max > IK_SUGGEST_MAX) max = IK_SUGGEST_MAX;
    for (i = 0; i < count; ++i) {
        int s;
        if (!names[i] || !*names[i]) continue;
        s = score(names[i], wanted);
        if (s < 0) continue;
        for (k = found; k > 0 && best_score[k - 1] > s; --k) {
            if (k < max) {
                best[k] = best[k - 1];
                best_score[k] = best_score[k - 1];
            }
        }
        if (k < max) {
            best[k] = i;
            best_score[k] = s;
            if (found < max) ++found;
        }
    }
    return found;
}
