/*===- lib/remote/Listen.c - Accepting one TCP controller -----------------===*/
/* listen=<host>:<port>: bind the given host (unlike the reference, which binds
 * 0.0.0.0), accept one connection, then close the listener so no second
 * controller can connect. */

#include "orc-rt-c/RemoteExecutor.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

orc_rt_ErrorRef orc_rt_listenAndAcceptOne(const char *Host, const char *Port,
                                          int *FD) {
  struct addrinfo Hints, *Res = NULL;
  memset(&Hints, 0, sizeof(Hints));
  Hints.ai_family = AF_UNSPEC;
  Hints.ai_socktype = SOCK_STREAM;
  Hints.ai_flags = AI_PASSIVE;
  int RC = getaddrinfo(Host && *Host ? Host : NULL, Port, &Hints, &Res);
  if (RC != 0)
    return orc_rt_Error_createf("cannot resolve %s:%s: %s", Host, Port,
                                gai_strerror(RC));
  orc_rt_ErrorRef Err = NULL;
  int L = -1;
  /* IPv4 addresses first (a name like "localhost" also resolves to ::1,
   * but the reference listens on IPv4, where clients connecting to that
   * name look first). */
  for (int Pass = 0; Pass < 2 && L < 0; ++Pass)
    for (struct addrinfo *AI = Res; AI && L < 0; AI = AI->ai_next) {
      if ((AI->ai_family == AF_INET) != (Pass == 0))
        continue;
      L = socket(AI->ai_family, AI->ai_socktype | SOCK_CLOEXEC,
                 AI->ai_protocol);
      if (L < 0)
        continue;
      int One = 1;
      setsockopt(L, SOL_SOCKET, SO_REUSEADDR, &One, sizeof(One));
      if (bind(L, AI->ai_addr, AI->ai_addrlen) == 0 && listen(L, 1) == 0)
        break;
      orc_rt_Error_consume(Err);
      Err = orc_rt_Error_createf("cannot listen on %s:%s: %s", Host, Port,
                                 strerror(errno));
      close(L);
      L = -1;
    }
  freeaddrinfo(Res);
  if (L < 0)
    return Err ? Err
               : orc_rt_Error_createf("cannot listen on %s:%s", Host, Port);
  orc_rt_Error_consume(Err);
  int C;
  do
    C = accept4(L, NULL, NULL, SOCK_CLOEXEC);
  while (C < 0 && errno == EINTR);
  int Saved = errno;
  close(L); /* one controller only: later connections are refused */
  if (C < 0)
    return orc_rt_Error_createf("accept on %s:%s failed: %s", Host, Port,
                                strerror(Saved));
  int One = 1;
  setsockopt(C, IPPROTO_TCP, TCP_NODELAY, &One, sizeof(One));
  *FD = C;
  return NULL;
}
