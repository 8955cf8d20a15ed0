import sys
src,out,kernel=sys.argv[1:4]
s=open(src).read()
k=s.index(kernel+'(')
i=s.index('\n    else {\n',k)
# match braces from the '{'
j=s.index('{',i); d=0; p=j
while True:
    if s[p]=='{': d+=1
    elif s[p]=='}':
        d-=1
        if d==0: break
    p+=1
s=s[:j+1]+'\n    }'+s[p+1:]
open(out,'w').write(s)
