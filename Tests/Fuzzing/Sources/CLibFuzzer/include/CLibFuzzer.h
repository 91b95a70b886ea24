// libFuzzer's driver, for an executable whose `main` the build system names itself: SwiftPM
// points `main` at `<target>_main`, so the harness defines that and hands over to libFuzzer.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
