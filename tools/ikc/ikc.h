/* ikc: the command-line tool over ikit. One function per command. */
#ifndef IKC_H
#define IKC_H

#define IKC_VERSION "0.1.0"

/* Each takes the arguments after the command's name; returns the exit code. */
int ikc_demo(int argc, char **argv);

#endif
