// A tiny stand-in for testlib.h, written for the tests (not testlib itself): the same calling
// convention (checker input output answer; exit 0 ok, 1 wrong answer, 2 presentation error,
// 3 checker failure) and the few calls the test checkers use.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3 };

struct InStream {
    std::ifstream f;
    std::string readToken() {
        std::string s;
        if (!(f >> s)) { std::cerr << "wrong answer unexpected end of file\n"; std::exit(_wa); }
        return s;
    }
    long long readLong() { return std::stoll(readToken()); }
};

InStream inf, ouf, ans;

void registerTestlibCmd(int argc, char* argv[]) {
    if (argc < 4) { std::cerr << "FAIL usage: checker input output answer\n"; std::exit(_fail); }
    inf.f.open(argv[1]);
    ouf.f.open(argv[2]);
    ans.f.open(argv[3]);
}

void quitf(TResult r, const char* msg) {
    std::cerr << (r == _ok ? "ok " : "wrong answer ") << msg << "\n";
    std::exit(r);
}
