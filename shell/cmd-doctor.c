/* placeholder until the owner of this verb lands it */
#include <stdio.h>
#include "shell/cmd.h"
int cmd_doctor(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "sandmux %s: not built yet\n", argv[0]);
	return 1;
}
